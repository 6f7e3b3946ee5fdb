// report.json read back: what the run history and a comparison take of a run is what the run wrote.
#include "report/report_json_reader.h"

#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "gate/run_snapshot.h"
#include "report/json_report.h"
#include "report/report_loader.h"
#include "support/sample_report.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

// The same stages, results and figures (names, units, directions, samples), in the same order.
void expect_same_snapshot(const RunReport& written, const RunReport& read) {
  const gate::RunSnapshot a = gate::snapshot_of(written, ""), b = gate::snapshot_of(read, "");
  ASSERT_EQ(a.stages.size(), b.stages.size());
  for (std::size_t i = 0; i < a.stages.size(); ++i) {
    const auto &x = a.stages[i], &y = b.stages[i];
    EXPECT_EQ(std::tie(x.config, x.mode, x.stage, x.kind, x.result, x.seconds),
              std::tie(y.config, y.mode, y.stage, y.kind, y.result, y.seconds));
    ASSERT_EQ(x.figures.size(), y.figures.size()) << x.stage;
    for (std::size_t f = 0; f < x.figures.size(); ++f) {
      const auto &p = x.figures[f], &q = y.figures[f];
      EXPECT_EQ(std::tie(p.name, p.unit, p.better, p.gated_by_default),
                std::tie(q.name, q.unit, q.better, q.gated_by_default));
      ASSERT_EQ(p.samples.size(), q.samples.size()) << p.name;
      for (std::size_t s = 0; s < p.samples.size(); ++s) {
        if (std::isnan(p.samples[s]))
          EXPECT_TRUE(std::isnan(q.samples[s])) << p.name;
        else
          EXPECT_EQ(p.samples[s], q.samples[s]) << p.name;
      }
    }
  }
}

Result<RunReport> round_trip(const RunReport& report) {
  return read_report_json(render_json_report(report), "report.json");
}

TEST(ReportJsonReader, ReadsBackWhatTheHistoryAndAComparisonTakeOfARun) {
  const RunReport written = test::sample_run_report_with_retries();
  const auto read = round_trip(written);
  ASSERT_TRUE(read) << read.error().str();
  EXPECT_EQ(std::string(read->verdict().word()), written.verdict().word());
  EXPECT_EQ(read->started, written.started);
  EXPECT_EQ(read->finished, written.finished);
  EXPECT_EQ(read->repo_root, "/repo");
  EXPECT_EQ(read->tool_version, "0.1.0");
  ASSERT_TRUE(read->environment && read->environment->repository);
  EXPECT_EQ(read->environment->repository->commit, "0123456789abcdef0123456789abcdef01234567");
  EXPECT_EQ(read->environment->repository->branch, "main");
  EXPECT_EQ(read->plans[0].stages[0].attempts.size(), 2u);
  expect_same_snapshot(written, *read);
}

TEST(ReportJsonReader, StagesTheRunLeftOutKeepTheVerdict) {
  RunReport written = test::sample_run_report();
  written.plans.resize(1);
  auto& stages = written.plans[0].stages;
  stages = {test::sample_stage("norm_train/gpus_-1/train", "train", "SKIPPED", kNotSelectedReason),
            test::sample_stage("norm_train/gpus_-1/eval", "eval", "SKIPPED", kNotSelectedReason)};
  for (StageReport& stage : stages) stage.selected = false;  // -k matched none of them
  const auto read = round_trip(written);
  ASSERT_TRUE(read) << read.error().str();
  EXPECT_FALSE(read->plans[0].stages[0].selected);
  const run::RunVerdict before = written.verdict(), after = read->verdict();
  EXPECT_EQ(std::string(after.word()), before.word());
  EXPECT_EQ(after.explanation(), before.explanation());
  EXPECT_EQ(after.explanation(), "nothing ran: no stage was planned or selected");
}

TEST(ReportJsonReader, WhatIsNoReportOfThisTipcRunIsAnErrorNamingTheField) {
  const auto not_json = read_report_json("{\"schema\": ", "b.tar.gz: reports/report.json");
  ASSERT_FALSE(not_json);
  EXPECT_EQ(not_json.error().str(), "b.tar.gz: reports/report.json: not a JSON object: not a report.json of tipc-run");
  const auto other = read_report_json(R"({"schema": "padiff"})", "r.json");
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().str(), "r.json: field 'schema': not \"tipc-run-report\": not a report.json of tipc-run");
  const auto newer = read_report_json(R"({"schema": "tipc-run-report", "schema_version": 2})", "r.json");
  ASSERT_FALSE(newer);
  EXPECT_EQ(newer.error().str(),
            "r.json: field 'schema_version': 2: a report of a newer tipc-run (this one reads up to 1)");

  nlohmann::json json = nlohmann::json::parse(render_json_report(test::sample_run_report()));
  json["plans"][0]["stages"][2]["result"] = "GREAT";
  const auto unknown = read_report_json(json.dump(), "r.json");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().str(), "r.json: field 'plans[0].stages[2].result': unknown result 'GREAT'");
  json["plans"][0]["stages"][2]["result"] = "PASS";
  json["plans"][0]["stages"][0]["metrics"]["benchmark"]["ips"]["median"] = "fast";
  const auto mistyped = read_report_json(json.dump(), "r.json");
  ASSERT_FALSE(mistyped);
  EXPECT_EQ(mistyped.error().str(), "r.json: field 'plans[0].stages[0].metrics.benchmark.ips.median': not a number");
}

// A bundle's stages keep their GPU figures and the warnings that decide whether they are figures.
TEST(ReportJsonReader, ReadsBackEachStagesGpuFiguresAndWarnings) {
  RunReport run = test::sample_run_report();
  run::GpuFigures& train = run.plans[0].stages[0].gpu;
  train.samples = 9;
  train.memory_peak_mib = 6144;
  train.utilization_mean_percent = 71.25;
  train.power_mean_watts = 180;
  train.throttle_reasons = {"hw_slowdown"};
  run.plans[0].stages[5].gpu = train;
  run.plans[0].stages[5].gpu_warnings = {"GPU 0: memory of the previous stage still held after 30 s; started anyway"};
  const auto read = round_trip(run);
  ASSERT_TRUE(read) << read.error().str();
  EXPECT_EQ(read->plans[0].stages[0].gpu, train);
  EXPECT_EQ(read->plans[0].stages[5].gpu_warnings, run.plans[0].stages[5].gpu_warnings);
  EXPECT_TRUE(read->plans[0].stages[1].gpu.empty());
  expect_same_snapshot(run, *read);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
