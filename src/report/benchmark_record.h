#pragma once
// The TIPC benchmark record: the one-line JSON object that PaddlePaddle's benchmark database
// reads for each benchmark train (its `*_speed` file), written for every train stage of a
// `benchmark_train` plan beside the stage logs, in <LOG>/index/. docs/log-formats.md
// ("The TIPC benchmark record") says what each field means and where it comes from; the
// multi-card throughput follows Paddle's convention: one card's ips times the card count.
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "report/run_report.h"

namespace tipc::report {

inline constexpr const char* kBenchmarkRecordDir = "index";
inline constexpr const char* kBenchmarkRunMode = "DP";   // TIPC's train chains are data-parallel
inline constexpr const char* kConvergenceKey = "loss:";  // the loss, as Paddle's runners name it

// What a record takes from the run rather than from its stage.
struct RecordFacts {
  std::string repo_name;                      // the repository directory's name: "PaddleOCR"
  std::string model;                          // the config's model_name
  std::optional<RepositoryState> repository;  // git's branch and commit
  std::optional<std::string> frame_version;   // the framework's version: paddle's, else torch's
};

struct BenchmarkRecord {
  std::optional<std::string> model_branch, model_commit;
  std::string model_name;  // <model>_bs<batch>_<fp_item>_<run_mode>
  std::string batch_text;  // the batch size as the config gives it
  std::optional<int> batch_size;
  std::string fp_item;           // "fp32", "fp16", "bf16"
  std::string run_process_type;  // "SingleP" for one card, "MultiP" for more
  std::string run_mode = kBenchmarkRunMode;
  std::optional<double> convergence_value;  // the last logged loss
  double ips = 0;                           // all cards together, 3 decimals; 0 without figures
  std::string speed_unit;
  std::string device_num;                   // "N1C1", "N1C4", "N2C16": nodes and cards in all
  std::optional<long long> model_run_time;  // the stage's seconds
  std::optional<std::string> frame_commit;  // never known to tipc-run: null
  std::optional<std::string> frame_version;
};

// The precision word of an auto_cast element: fp16 for AMP (amp, fp16, O1, O2, True as
// AMP.use_amp's value), bf16 for bf16, fp32 for the rest (null, fp32, False).
std::string fp_item_of(const std::string& autocast);

// "N<nodes>C<cards in all>"; a CPU train counts as one card.
std::string device_num_of(int gpus_per_node, int nodes);

// The record of a train stage that ran; nullopt for any other stage.
std::optional<BenchmarkRecord> benchmark_record(const StageReport& stage, const RecordFacts& facts);

// One line of JSON, fields in the order Paddle's analysis script writes them.
std::string render_benchmark_record(const BenchmarkRecord& record);

// <repo>_<model>_bs<batch>_<fp_item>_<run_mode>_<device_num>_speed, as benchmark_train.sh names it.
std::string benchmark_record_file_name(const BenchmarkRecord& record, const std::string& repo_name);

// The records of every benchmark_train plan, each in <plan's output dir>/index/ (a name two
// stages share gets _2, _3, ... before `_speed`); the paths written, in plan order.
Result<std::vector<std::string>> write_benchmark_records(const RunReport& report);

}  // namespace tipc::report
