// report.json: pinned by a golden file, and what tools rely on checked field by field.
#include "report/json_report.h"

#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden.h"
#include "support/sample_report.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

TEST(JsonReport, MatchesTheGoldenFile) {
  test::expect_golden("report.json", render_json_report(test::sample_run_report()));
}

// The stages are written one at a time, never as one tree; the text must still be what
// dumping the whole tree writes, also with no plan, or a plan without stages.
TEST(JsonReport, IsWhatDumpingTheWholeTreeWrites) {
  auto with_empty_plan = test::sample_run_report();
  with_empty_plan.plans.push_back(with_empty_plan.plans.front());
  with_empty_plan.plans.back().stages.clear();
  auto without_plans = test::sample_run_report();
  without_plans.plans.clear();
  for (const auto* report : {&with_empty_plan, &without_plans}) {
    const std::string text = render_json_report(*report);
    EXPECT_EQ(text, nlohmann::ordered_json::parse(text).dump(2) + "\n");
  }
  EXPECT_EQ(nlohmann::json::parse(render_json_report(with_empty_plan))["plans"].back()["stages"],
            nlohmann::json::array());
}

// Written to the file piece by piece (write_json_report flushes every 64 KiB): a report far
// larger than that is still exactly the whole tree's dump, every stage once and in order.
TEST(JsonReport, AReportLargerThanOnePieceIsWrittenWhole) {
  auto large = test::sample_run_report();
  auto& stages = large.plans.front().stages;
  const StageReport model = stages.front();
  stages.clear();
  for (int i = 0; i < 400; ++i) {
    stages.push_back(model);
    stages.back().id = "stage_" + std::to_string(i);
    stages.back().argv.assign(8, std::string(40, 'a' + i % 26));
  }
  std::ostringstream written;
  write_json_report(large, written);
  ASSERT_GT(written.str().size(), 4u * 65536);
  const auto json = nlohmann::ordered_json::parse(written.str());
  EXPECT_EQ(written.str(), json.dump(2) + "\n");
  ASSERT_EQ(json["plans"].front()["stages"].size(), 400u);
  EXPECT_EQ(json["plans"].front()["stages"][399]["id"], "stage_399");
}

TEST(JsonReport, HoldsTheVerdictCountsAndEveryStage) {
  const auto json = nlohmann::json::parse(render_json_report(test::sample_run_report()));
  EXPECT_EQ(json["schema"], "tipc-run-report");
  EXPECT_EQ(json["schema_version"], 1);
  EXPECT_EQ(json["verdict"], "FAIL");
  EXPECT_EQ(json["exit_code"], 1);
  EXPECT_EQ(json["seconds"], 30.5);
  EXPECT_EQ(json["counts"]["total"], 10);
  EXPECT_EQ(json["counts"]["PASS"], 5);
  EXPECT_EQ(json["counts"]["UNRESOLVED"], 0);  // every result is present
  ASSERT_EQ(json["plans"].size(), 2u);
  const auto& stages = json["plans"][0]["stages"];
  ASSERT_EQ(stages.size(), 9u);
  EXPECT_EQ(stages[0]["env"]["CUDA_VISIBLE_DEVICES"], nullptr);  // removed
  EXPECT_EQ(stages[2]["signal"], 15);
  EXPECT_EQ(stages[2]["exit_code"], nullptr);
  EXPECT_EQ(stages[3]["started"], nullptr);  // never ran
  EXPECT_EQ(stages[6]["check"]["values"][1]["limit"], 1e-6);
  EXPECT_EQ(stages[6]["check"]["values"][1]["passed"], false);
  EXPECT_EQ(stages[8]["check"]["histograms"][0]["edges"].size(), 3u);
}

TEST(JsonReport, HoldsTheEnvironmentUnderOneKeyAndEachFailuresErrorLine) {
  RunReport run = test::sample_run_report();
  auto json = nlohmann::json::parse(render_json_report(run));
  const auto& environment = json["environment"];
  EXPECT_EQ(environment["host"], "ci-7");
  EXPECT_EQ(environment["cpu_cores"], 16);
  EXPECT_EQ(environment["gpus"][0]["driver"], "550.54.15");
  EXPECT_EQ(environment["interpreter"]["python_version"], "3.11.2");
  EXPECT_EQ(environment["interpreter"]["frameworks"]["torch"], "2.1.2");
  EXPECT_EQ(environment["repository"]["dirty"], true);
  EXPECT_EQ(environment["command_line"][3], "-k");
  EXPECT_EQ(json["plans"][0]["stages"][1]["error_line"], "ValueError: top1 < 0 & \"nan\"");
  EXPECT_EQ(json["plans"][0]["stages"][0]["error_line"], "");
  run.environment.reset();  // a run of an older tipc-run
  EXPECT_EQ(nlohmann::json::parse(render_json_report(run))["environment"], nullptr);
}

TEST(JsonReport, HoldsBenchmarkFiguresAndAutoLogMemory) {
  const auto json = nlohmann::json::parse(render_json_report(test::sample_run_report()));
  const auto& stages = json["plans"][0]["stages"];
  const auto& benchmark = stages[0]["metrics"]["benchmark"];
  EXPECT_EQ(benchmark["ips"], (nlohmann::json{{"median", 120.5}, {"mean", 118.25}, {"steps", 10}}));
  EXPECT_EQ(benchmark["ips_unit"], "samples/s");
  EXPECT_EQ(benchmark["batch_cost_s"]["median"], 0.0625);
  EXPECT_EQ(benchmark["reader_cost_s"], nullptr);  // not logged
  EXPECT_EQ(benchmark["max_mem_reserved_mb"], 2048);
  EXPECT_EQ(benchmark["max_mem_allocated_mb"], nullptr);
  EXPECT_EQ(benchmark["skipped_steps"], 2);
  EXPECT_EQ(benchmark["ips_curves"][0]["points"][2], (nlohmann::json{3, 120.5}));
  EXPECT_EQ(stages[1]["metrics"]["benchmark"], nullptr);
  EXPECT_EQ(stages[2]["metrics"]["timings"]["cpu_rss_mb"], 717.5);
  EXPECT_EQ(stages[2]["metrics"]["timings"]["gpu_rss_mb"], nullptr);
}

TEST(JsonReport, ANonFiniteValueIsNullAndInvalidUtf8IsReplaced) {
  RunReport run = test::sample_run_report();
  run.plans[0].stages[6].check->values[0].value = std::numeric_limits<double>::quiet_NaN();
  const auto json = nlohmann::json::parse(render_json_report(run));  // would throw on bad UTF-8
  EXPECT_EQ(json["plans"][0]["stages"][6]["check"]["values"][0]["value"], nullptr);
  EXPECT_NE(json["plans"][0]["stages"][1]["log_tail"].get<std::string>().find("\xEF\xBF\xBD"), std::string::npos);
}

TEST(JsonReport, AnInterruptedRunSaysSo) {
  RunReport run = test::sample_run_report();
  run.interrupted = true;
  run.finished.reset();
  const auto json = nlohmann::json::parse(render_json_report(run));
  EXPECT_EQ(json["verdict"], "INTERRUPTED");
  EXPECT_EQ(json["exit_code"], 130);
  EXPECT_EQ(json["finished"], nullptr);
  EXPECT_EQ(json["seconds"], nullptr);
}

// docs/report-schema.md: "gpu" as the journal writes it, "gpu_warnings" and a TIMEOUT's "stack"
// only where a stage has them; "gpu_devices" always.
TEST(JsonReport, GpuFiguresWarningsAndAStackAreWrittenWhereAStageHasThem) {
  RunReport run = test::sample_run_report();
  run.gpus = {"0"};
  run.gpu_devices = {{"0", 1, 0, "NVIDIA H100 80GB HBM3", "GPU-9f8e7d6c"}};
  StageReport& train = run.plans[0].stages[0];
  train.gpu.samples = 4;
  train.gpu.memory_peak_mib = 10240;
  train.gpu.utilization_mean_percent = 87.5;
  train.gpu.utilization_peak_percent = 100;
  train.gpu.throttle_reasons = {"sw_power_cap"};
  train.gpu_warnings = {"GPU 0: pid 4242 (python3 other.py) holds 2048 MiB, not started by this run"};
  run.plans[0].stages[2].stack = {"hang.py:5 in spin", "hang.py:9 in <module>"};
  const auto json = nlohmann::json::parse(render_json_report(run));
  EXPECT_EQ(json["gpu_devices"], nlohmann::json::parse(R"([{"id": "0", "index": 0, "name": "NVIDIA H100 80GB HBM3",
                                                           "uuid": "GPU-9f8e7d6c"}])"));
  const auto& stages = json["plans"][0]["stages"];
  EXPECT_EQ(stages[0]["gpu"], nlohmann::json::parse(R"({"samples": 4, "memory_peak_mib": 10240,
      "utilization_mean_percent": 87.5, "utilization_peak_percent": 100, "throttle_reasons": ["sw_power_cap"]})"));
  EXPECT_EQ(stages[0]["gpu_warnings"].size(), 1u);
  EXPECT_EQ(stages[2]["stack"], (nlohmann::json{"hang.py:5 in spin", "hang.py:9 in <module>"}));
  for (const char* key : {"gpu", "gpu_warnings", "stack"}) EXPECT_FALSE(stages[1].contains(key)) << key;
  EXPECT_FALSE(stages[0].contains("stack"));
  EXPECT_EQ(nlohmann::json::parse(render_json_report(test::sample_run_report()))["gpu_devices"],
            nlohmann::json::array());
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
