// The TIPC benchmark record of a benchmark train, on constructed figures: the fields Paddle's
// benchmark database reads, the multi-card throughput convention, and what a record says when
// the run does not know a field.
#include "report/benchmark_record.h"

#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

using json = nlohmann::ordered_json;  // the order of the fields is tested

StageReport train_stage(int gpus, int nodes, double ips_mean, const std::string& autocast = "null") {
  StageReport stage;
  stage.id = "norm_train/gpus_0/autocast_" + autocast + "/train";
  stage.kind = plan::StageKind::kTrain;
  stage.gpus_needed = gpus;
  stage.nodes_needed = nodes;
  stage.train_setting = plan::TrainSetting{"8", autocast};
  stage.result = run::Status::kPass;
  stage.started = 1700000000;
  stage.seconds = 61.6;
  BenchmarkFigures figures;
  figures.ips = FigureStats{ips_mean - 1, ips_mean, 10};  // the median is not the record's
  figures.ips_unit = "images/s";
  stage.metrics.benchmark = figures;
  stage.metrics.curves = {{"lr", {{1, 0.1}, {2, 0.1}}}, {"loss", {{1, 3.5}, {2, 2.25}}}};
  return stage;
}

RecordFacts facts() {
  return {"PaddleOCR", "det_mv3_db_v2_0", RepositoryState{"7c39a1996b19087737c05d883fd346d2f39dbcc0", "dygraph", false},
          "2.6.1.post120"};
}

json record_json(const StageReport& stage, const RecordFacts& run_facts = facts()) {
  const auto record = benchmark_record(stage, run_facts);
  EXPECT_TRUE(record);
  return record ? json::parse(render_benchmark_record(*record)) : json();
}

TEST(BenchmarkRecord, OneCardHasEveryFieldPaddlesDatabaseReads) {
  const json record = record_json(train_stage(1, 1, 19.3333));
  const std::vector<std::string> fields = {
      "model_branch",     "model_commit", "model_name",        "batch_size",      "fp_item",
      "run_process_type", "run_mode",     "convergence_value", "convergence_key", "ips",
      "speed_unit",       "device_num",   "model_run_time",    "frame_commit",    "frame_version"};
  std::vector<std::string> keys;
  for (const auto& [key, value] : record.items()) keys.push_back(key);
  EXPECT_EQ(keys, fields);
  EXPECT_EQ(record["model_branch"], "dygraph");
  EXPECT_EQ(record["model_commit"], "7c39a1996b19087737c05d883fd346d2f39dbcc0");
  EXPECT_EQ(record["model_name"], "det_mv3_db_v2_0_bs8_fp32_DP");
  EXPECT_EQ(record["batch_size"], 8);
  EXPECT_EQ(record["fp_item"], "fp32");
  EXPECT_EQ(record["run_process_type"], "SingleP");
  EXPECT_EQ(record["run_mode"], "DP");
  EXPECT_EQ(record["convergence_key"], "loss:");
  EXPECT_EQ(record["convergence_value"], "2.25");         // the last loss, as text like Paddle's
  EXPECT_DOUBLE_EQ(record["ips"].get<double>(), 19.333);  // the mean, 3 decimals
  EXPECT_EQ(record["speed_unit"], "images/s");
  EXPECT_EQ(record["device_num"], "N1C1");
  EXPECT_EQ(record["model_run_time"], "62");  // whole seconds, as text like Paddle's
  EXPECT_TRUE(record["frame_commit"].is_null());
  EXPECT_EQ(record["frame_version"], "2.6.1");  // the wheel's build tag left out
}

TEST(BenchmarkRecord, MultiCardIpsIsOneCardsTimesTheCardCount) {
  const json four = record_json(train_stage(4, 1, 20.5));
  EXPECT_EQ(four["device_num"], "N1C4");
  EXPECT_EQ(four["run_process_type"], "MultiP");
  EXPECT_DOUBLE_EQ(four["ips"].get<double>(), 82.0);
  const json two_nodes = record_json(train_stage(8, 2, 10.0));  // 8 GPUs on each of 2 machines
  EXPECT_EQ(two_nodes["device_num"], "N2C16");
  EXPECT_DOUBLE_EQ(two_nodes["ips"].get<double>(), 160.0);
  const json cpu = record_json(train_stage(0, 1, 3.0));  // a CPU train counts as one card
  EXPECT_EQ(cpu["device_num"], "N1C1");
  EXPECT_EQ(cpu["run_process_type"], "SingleP");
  EXPECT_DOUBLE_EQ(cpu["ips"].get<double>(), 3.0);
}

TEST(BenchmarkRecord, Fp16ComesFromTheAutoCastElement) {
  const json record = record_json(train_stage(1, 1, 10, "amp"));
  EXPECT_EQ(record["fp_item"], "fp16");
  EXPECT_EQ(record["model_name"], "det_mv3_db_v2_0_bs8_fp16_DP");
  for (const char* half : {"amp", "fp16", "O1", "O2", "True", "pure_fp16"}) EXPECT_EQ(fp_item_of(half), "fp16") << half;
  for (const char* full : {"null", "fp32", "False", ""}) EXPECT_EQ(fp_item_of(full), "fp32") << full;
  EXPECT_EQ(fp_item_of("bf16"), "bf16");
}

TEST(BenchmarkRecord, WhatTheRunDoesNotKnowIsNullOrPaddlesZero) {
  StageReport stage = train_stage(1, 1, 10);
  stage.metrics = {};  // a log without figures or loss
  stage.seconds.reset();
  stage.train_setting.reset();  // a plan file of an older tipc-run
  const json record = record_json(stage, RecordFacts{"repo", "m", std::nullopt, std::nullopt});
  EXPECT_TRUE(record["model_branch"].is_null());
  EXPECT_TRUE(record["model_commit"].is_null());
  EXPECT_EQ(record["model_name"], "m_bs_fp32_DP");
  EXPECT_EQ(record["batch_size"], "");  // not a number: the config's text
  EXPECT_EQ(record["ips"], 0);
  EXPECT_EQ(record["speed_unit"], "samples/s");
  EXPECT_EQ(record["convergence_value"], 0);
  EXPECT_EQ(record["convergence_key"], "loss:");
  EXPECT_TRUE(record["model_run_time"].is_null());
  EXPECT_TRUE(record["frame_version"].is_null());
}

TEST(BenchmarkRecord, TheLossIsTheLowestRanksLastValue) {
  StageReport stage = train_stage(2, 1, 10);
  stage.metrics.curves = {{"loss (rank 1)", {{1, 9.0}, {5, 8.0}}}, {"loss (rank 0)", {{1, 4.0}, {5, 1.5}}}};
  EXPECT_EQ(record_json(stage)["convergence_value"], "1.5");
}

TEST(BenchmarkRecord, OnlyTrainStagesThatRanHaveOne) {
  StageReport eval = train_stage(1, 1, 10);
  eval.kind = plan::StageKind::kEval;
  EXPECT_FALSE(benchmark_record(eval, facts()));
  StageReport skipped = train_stage(1, 1, 10);
  skipped.started.reset();
  skipped.result = run::Status::kSkipped;
  EXPECT_FALSE(benchmark_record(skipped, facts()));
  StageReport failed = train_stage(1, 1, 10);
  failed.result = run::Status::kFail;  // Paddle's database gets failed trains too
  EXPECT_TRUE(benchmark_record(failed, facts()));
}

TEST(BenchmarkRecord, FileNameIsBenchmarkTrainShs) {
  const auto record = benchmark_record(train_stage(4, 1, 10, "amp"), facts());
  ASSERT_TRUE(record);
  EXPECT_EQ(benchmark_record_file_name(*record, "PaddleOCR"), "PaddleOCR_det_mv3_db_v2_0_bs8_fp16_DP_N1C4_speed");
}

TEST(BenchmarkRecord, EveryBenchmarkTrainPlanWritesItsRecordsIntoItsIndexDirectory) {
  test::TempDir dir;
  RunReport report;
  report.repo_root = (dir.path() / "PaddleOCR").string() + "/";
  PlanReport bench{"c.txt", "/c.txt", "benchmark_train", "det", "paddleocr", "", (dir.path() / "bench").string(), {}};
  bench.stages = {train_stage(1, 1, 10), train_stage(1, 1, 12)};  // gpu_list 0|0: one name twice
  PlanReport lite = bench;
  lite.mode = "lite_train_lite_infer";
  lite.output_dir = (dir.path() / "lite").string();
  report.plans = {bench, lite};
  const auto written = write_benchmark_records(report);
  ASSERT_TRUE(written) << written.error().str();
  const std::string index = (dir.path() / "bench" / "index").string();
  EXPECT_EQ(*written, (std::vector<std::string>{index + "/PaddleOCR_det_bs8_fp32_DP_N1C1_speed",
                                                index + "/PaddleOCR_det_bs8_fp32_DP_N1C1_2_speed"}));
  EXPECT_DOUBLE_EQ(json::parse(test::slurp(written->at(1)))["ips"].get<double>(), 12.0);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "lite" / "index"));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
