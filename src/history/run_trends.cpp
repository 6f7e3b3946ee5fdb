#include "history/run_trends.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <vector>

#include <fmt/format.h>

#include "gate/comparison_rows.h"
#include "gate/run_comparison.h"

namespace tipc::history {
namespace {

// One passed stage of one recorded run.
struct StageRun {
  const RunEntry* run = nullptr;
  gate::StageSnapshot stage;
};

struct Chains {
  std::vector<TrendStageKey> order;                         // as first seen, newest run first
  std::map<TrendStageKey, std::vector<StageRun>> by_stage;  // newest first
};

TrendStageKey key_of(const gate::StageSnapshot& stage) { return {stage.config, stage.mode, stage.stage}; }

// Each wanted stage has as many runs as the charts show, and one before them.
bool has_enough(const Chains& chains, const TrendRequest& request) {
  if (!request.stages) return false;
  return std::all_of(request.stages->begin(), request.stages->end(), [&](const TrendStageKey& key) {
    const auto found = chains.by_stage.find(key);
    return found != chains.by_stage.end() && found->second.size() > request.points;
  });
}

Result<Chains> collect(RunHistory& history, const std::vector<RunEntry>& runs, const TrendRequest& request) {
  Chains chains;
  const std::size_t limit = request.points * kTrendRunsScannedPerPoint;
  std::size_t scanned = 0;
  for (const RunEntry& entry : runs) {
    if (request.current_run && entry.id > *request.current_run) continue;
    if (scanned++ == limit || has_enough(chains, request)) break;
    gate::RunSnapshot snapshot = TRY(history.snapshot(entry.id));
    for (gate::StageSnapshot& stage : snapshot.stages) {
      const TrendStageKey key = key_of(stage);
      // A stage that did not pass has no figures to follow: they describe a broken run (as in compare).
      if (!run::is_passed(stage.result) || (request.stages && !request.stages->contains(key))) continue;
      auto& chain = chains.by_stage[key];
      if (chain.empty()) chains.order.push_back(key);
      if (chain.size() <= request.points) chain.push_back({&entry, std::move(stage)});
    }
  }
  return chains;
}

// A point's comparison, as its tooltip words it.
struct Judgement {
  std::string text;
  bool regressed = false;
};

Judgement judgement_of(const gate::ComparisonRow& row, const std::string& against) {
  const bool regressed = row.result == gate::Class::kRegressed;
  const bool warn = regressed && row.severity == gate::Severity::kWarn;
  return {fmt::format("{}{}: {} -> {}{}{} against {}", gate::to_string(row.result), warn ? " (warn)" : "", row.base,
                      row.current, row.change.empty() ? "" : ", " + row.change,
                      row.p_value.empty() ? "" : ", p=" + row.p_value, against),
          regressed};
}

// Each run's figure rows, by figure name: its comparison with the run before it in `chain`
// (oldest first), or the current run's with the baseline. Index 0 has none.
std::vector<std::map<std::string, Judgement>> judged(const std::vector<StageRun>& chain, const gate::GateRules& rules,
                                                     const TrendRequest& request) {
  std::vector<std::map<std::string, Judgement>> out(chain.size());
  for (std::size_t i = 0; i < chain.size(); ++i) {
    const gate::StageSnapshot* base = i > 0 ? &chain[i - 1].stage : nullptr;
    std::string against = i > 0 ? fmt::format("run {}", chain[i - 1].run->id) : "";
    if (request.baseline && request.current_run == chain[i].run->id) {
      const auto& stages = request.baseline->stages;
      const auto same = std::find_if(stages.begin(), stages.end(),
                                     [&](const gate::StageSnapshot& s) { return key_of(s) == key_of(chain[i].stage); });
      if (same != stages.end()) std::tie(base, against) = std::pair(&*same, "the baseline, " + request.baseline->label);
    }
    if (!base) continue;
    const auto comparison = gate::compare_runs({"", {*base}}, {"", {chain[i].stage}}, rules);
    for (const gate::ComparisonRow& row : gate::comparison_rows(comparison)) {
      out[i][row.figure] = judgement_of(row, against);
    }
  }
  return out;
}

// The gated figures of the stage, in the newest run's order, then the older runs' others.
std::vector<report::TrendChart> charts_of(const std::vector<StageRun>& chain, const gate::GateRules& rules) {
  std::vector<report::TrendChart> charts;
  for (auto run = chain.rbegin(); run != chain.rend(); ++run) {
    for (const gate::Figure& figure : run->stage.figures) {
      const auto rule = gate::rule_for(rules, figure, run->stage.stage);
      const auto same = [&](const report::TrendChart& c) { return c.metric == figure.name; };
      if (!rule || std::any_of(charts.begin(), charts.end(), same)) continue;
      charts.push_back({run->stage.config,
                        run->stage.mode,
                        run->stage.stage,
                        figure.name,
                        figure.unit,
                        rule->change.better == stats::Better::kHigher,
                        {}});
    }
  }
  return charts;
}

report::TrendPoint point_of(const StageRun& run, double value, const TrendRequest& request) {
  return {run.run->id,
          run.run->commit,
          run.run->branch,
          value,
          "",
          false,
          request.baseline_run == run.run->id,
          request.current_run == run.run->id};
}

void add_charts(report::HistoryTrends& out, std::vector<StageRun> chain, const gate::GateRules& rules,
                const TrendRequest& request) {
  std::reverse(chain.begin(), chain.end());  // oldest first
  const auto comparisons = judged(chain, rules, request);
  const std::size_t first = chain.size() > request.points ? 1 : 0;  // the one before the shown points
  for (report::TrendChart& chart : charts_of(chain, rules)) {
    for (std::size_t i = first; i < chain.size(); ++i) {
      const auto& figures = chain[i].stage.figures;
      const auto figure =
          std::find_if(figures.begin(), figures.end(), [&](const gate::Figure& f) { return f.name == chart.metric; });
      const double value = figure == figures.end() ? NAN : stats::median(figure->samples);
      if (std::isnan(value)) continue;
      report::TrendPoint point = point_of(chain[i], value, request);
      if (const auto found = comparisons[i].find(chart.metric); found != comparisons[i].end()) {
        point.comparison = found->second.text;
        point.regressed = found->second.regressed;
      }
      chart.points.push_back(std::move(point));
    }
    if (!chart.points.empty()) out.charts.push_back(std::move(chart));
  }
}

bool has_regression(const report::TrendChart& chart) {
  return std::any_of(chart.points.begin(), chart.points.end(), [](const report::TrendPoint& p) { return p.regressed; });
}

// The charts with a regressed point, then the others, up to `most`, in their order.
void keep_at_most(report::HistoryTrends& trends, std::size_t most) {
  if (trends.charts.size() <= most) return;
  std::vector<bool> kept(trends.charts.size(), false);
  std::size_t n = 0;
  for (const bool regressed_only : {true, false}) {
    for (std::size_t i = 0; i < trends.charts.size() && n < most; ++i) {
      if (kept[i] || (regressed_only && !has_regression(trends.charts[i]))) continue;
      kept[i] = true;
      ++n;
    }
  }
  std::vector<report::TrendChart> charts;
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (kept[i]) charts.push_back(std::move(trends.charts[i]));
  }
  trends.charts_left_out = trends.charts.size() - charts.size();
  trends.charts = std::move(charts);
}

}  // namespace

Result<report::HistoryTrends> load_trends(RunHistory& history, const gate::GateRules& rules,
                                          const TrendRequest& request) {
  // Every run is listed when the report's run may be older than the scanned ones: listing is cheap.
  const std::size_t listed =
      request.current_run ? std::numeric_limits<std::int32_t>::max() : request.points * kTrendRunsScannedPerPoint;
  const std::vector<RunEntry> runs = TRY(history.runs(listed));
  Chains chains = TRY(collect(history, runs, request));
  // Grouped by config and MODE, each in the plan order of its newest run.
  std::stable_sort(chains.order.begin(), chains.order.end(), [](const TrendStageKey& a, const TrendStageKey& b) {
    return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
  });
  report::HistoryTrends trends{history.path(), {}};
  for (const TrendStageKey& key : chains.order) add_charts(trends, std::move(chains.by_stage[key]), rules, request);
  keep_at_most(trends, request.max_charts);
  return trends;
}

}  // namespace tipc::history
