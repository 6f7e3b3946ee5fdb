#pragma once
// A directory suite in the MODEs given (`tipc-run DIR MODE[,MODE...]`): every config of the
// directory, of every chain, runs in each listed MODE its chain takes (configs/chains.yaml's
// `modes`); the configs whose chain takes none of them are counted per chain, never left out
// without a word; a listed MODE that no config takes is an error naming the chains that have
// it. All (config, MODE) plans form one suite: one schedule, one verdict. A single config
// runs in each MODE given, as before for one.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/project.h"
#include "cli/suite.h"
#include "core/error.h"
#include "dialect/chains.h"

namespace tipc::cli {

// The suite of `selected` in given.modes: as plan_configs for one config, or a directory
// without chains.yaml and one MODE; else each MODE's configs planned with that MODE, then the
// steps over the whole suite (finish_suite). Suite::in_other_modes holds the others.
Result<Suite> plan_suite(const plan::SelectedConfigs& selected, const Project& project, const SuiteRequest& given);

// "tipc-run: 3 configs take none of the MODEs lite_train_lite_infer: paddle2onnx 1
// (paddle2onnx_infer), serving_infer_python 1 (serving_infer), ..." when there are any.
std::string configs_taking_no_mode_line(const Suite& suite, const std::vector<std::string>& modes);

}  // namespace tipc::cli
