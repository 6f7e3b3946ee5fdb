#pragma once
// How a suite names its configs on the console and in every report. A directory suite of 31
// configs often has 31 files of one name (ResNet50/train_infer_python.txt, ...): a config is
// named by its path's last components, as few as tell it from every other config of the
// run: the file name where that alone is unique, else with its directories up to where the
// paths differ (at most the path relative to the directory the configs share). A run of
// several MODEs names each config's mode too ("ResNet50/train_infer_python.txt whole_infer").
#include <string>
#include <vector>

namespace tipc::report {

struct ConfigRun {
  std::string config;  // the path as given on the command line
  std::string mode;
};

// One label per config run, in the order given.
std::vector<std::string> config_labels(const std::vector<ConfigRun>& runs);

}  // namespace tipc::report
