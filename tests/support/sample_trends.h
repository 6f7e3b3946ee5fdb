#pragma once
// A constructed HistoryTrends for the renderers' tests (trend_html_test, html_browser_test).
#include <cstdint>
#include <string>

#include "report/history_trends.h"

namespace tipc::test {

inline report::TrendPoint trend_point(std::int64_t run, double value, std::string comparison = "") {
  report::TrendPoint p;
  p.run = run;
  p.commit = "abcdef" + std::to_string(run) + "0123456789";
  p.branch = "main";
  p.value = value;
  p.comparison = std::move(comparison);
  return p;
}

// ips over four runs, run 2 the baseline, run 3 regressed; an eval metric of another config.
inline report::HistoryTrends sample_trends() {
  report::TrendChart ips{
      "test_tipc/configs/alexnet.txt",
      "benchmark_train",
      "norm_train/gpus_1/train",
      "ips",
      "samples/s",
      true,
      {trend_point(1, 120), trend_point(2, 121, "UNCHANGED: ... against run 1"),
       trend_point(3, 96, "REGRESSED: 121 samples/s -> 96 samples/s, -20.66% against run 2"), trend_point(4, 97)}};
  ips.points[1].baseline = true;
  ips.points[2].regressed = true;
  ips.points[3].current = true;
  ips.points[3].branch = "<b>feature & \"x\"</b>";
  report::TrendChart top1{
      "test_tipc/configs/<resnet>.txt",           "lite_train_lite_infer", "eval<script>", "eval:top1", "", true,
      {trend_point(1, 0.9), trend_point(4, 0.91)}};
  top1.points[0].commit.clear();  // outside git
  return {"/repo/test_tipc/output/.tipc-history.sqlite", {ips, top1}};
}

}  // namespace tipc::test
