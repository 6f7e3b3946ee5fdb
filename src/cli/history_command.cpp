#include "cli/history_command.h"

#include <ctime>
#include <iostream>
#include <optional>
#include <variant>

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli/history_import.h"
#include "cli/subcommand.h"
#include "core/error.h"
#include "core/plural.h"
#include "gate/gate_rules.h"
#include "history/history_location.h"
#include "history/history_page.h"
#include "history/run_history.h"
#include "report/report_text.h"

namespace tipc::cli {
namespace {

struct HistoryArgs {
  std::optional<std::string> metric;
  std::string stage = "*";
  std::size_t runs = 20;
  std::optional<std::string> history;
  std::optional<std::string> html, settings;  // --html DIR: the page of charts, gated by --settings' gates:
};

std::variant<HistoryArgs, int> parse_history_args(const std::vector<std::string>& args, std::ostream& out,
                                                  std::ostream& err) {
  HistoryArgs parsed;
  CLI::App app{"The run history: the last runs, or one figure over them (a metric followed over commits)",
               "tipc-run history"};
  app.footer("tipc-run history import DIR_OR_BUNDLE... records existing output directories and bundles.");
  app.add_option("METRIC", parsed.metric, "a figure: ips, batch_cost_s, eval:top1, infer:inference_ms, ...");
  app.add_option("--stage", parsed.stage, "only stages whose id matches this glob (default: every stage)");
  app.add_option("--runs", parsed.runs, "how many of the last runs (default 20)")->check(CLI::Range(1, 1000000));
  app.add_option("--history", parsed.history,
                 "the run history (default: the settings' history:, else test_tipc/output/.tipc-history.sqlite)");
  auto* html = app.add_option("--html", parsed.html,
                              "write DIR/index.html: a chart per gated figure of every config, MODE and stage over the "
                              "last runs (--runs per chart)");
  app.add_option("--settings", parsed.settings,
                 "with --html: the settings file whose gates: apply (default: test_tipc/tipc-run.yaml of the "
                 "repository around the current directory, when it exists)")
      ->needs(html);
  if (const auto code = parse_subcommand(app, args, out, err)) return *code;
  return parsed;
}

std::string started_text(const std::optional<double>& started) {
  if (!started) return "-";
  return fmt::format("{:%Y-%m-%d %H:%M:%S}", fmt::gmtime(static_cast<std::time_t>(*started)));
}

std::string short_commit(const std::string& commit) { return commit.empty() ? "-" : commit.substr(0, 8); }

void print_runs(const std::vector<history::RunEntry>& runs, std::ostream& out) {
  out << fmt::format("{:>5}  {:<19}  {:<8}  {:<12}  {:<11}  {}\n", "run", "started (UTC)", "commit", "branch",
                     "verdict", "output");
  for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
    out << fmt::format("{:>5}  {:<19}  {:<8}  {:<12}  {:<11}  {}\n", it->id, started_text(it->started),
                       short_commit(it->commit), it->branch.empty() ? "-" : it->branch, it->verdict, it->output_dir);
  }
}

void print_series(const std::vector<history::SeriesPoint>& points, std::ostream& out) {
  out << fmt::format("{:>5}  {:<19}  {:<8}  {:>12}  {:>7}  {}\n", "run", "started (UTC)", "commit", "median", "samples",
                     "stage");
  for (const auto& point : points) {
    out << fmt::format("{:>5}  {:<19}  {:<8}  {:>12}  {:>7}  {} {} {}\n", point.run.id, started_text(point.run.started),
                       short_commit(point.run.commit), point.median ? report::format_number(*point.median) : "-",
                       point.samples, point.config, point.mode, point.stage);
  }
}

int write_page(history::RunHistory& history, const gate::GateRules& rules, const HistoryArgs& args, std::ostream& out,
               std::ostream& err) {
  const auto page = history::write_history_page(history, rules, args.runs, *args.html);
  if (!page) return subcommand_error("history", page.error(), err);
  out << fmt::format("tipc-run history: {} ({})\n", page->path, plural(page->charts, "chart"));
  return kExitPassed;
}

}  // namespace

int history_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (!args.empty() && args.front() == "import") return history_import_main({args.begin() + 1, args.end()}, out, err);
  auto parsed = parse_history_args(args, out, err);
  if (const int* code = std::get_if<int>(&parsed)) return *code;
  const HistoryArgs& history_args = std::get<HistoryArgs>(parsed);
  const auto repository = history::repository_here(history_args.settings);  // --settings: with --html only
  if (!repository) return subcommand_error("history", repository.error(), err);
  const std::string path = history::history_to_read(history_args.history, *repository);
  auto history = history::RunHistory::open(path, false);
  if (!history) return subcommand_error("history", history.error(), err);
  if (history_args.html) {
    return write_page(*history, gate::rules_from_settings(repository->settings.gates), history_args, out, err);
  }
  if (!history_args.metric) {
    const auto runs = history->runs(history_args.runs);
    if (!runs) return subcommand_error("history", runs.error(), err);
    print_runs(*runs, out);
    return kExitPassed;
  }
  const auto points = history->series(*history_args.metric, history_args.stage, history_args.runs);
  if (!points) return subcommand_error("history", points.error(), err);
  if (points->empty()) {
    return subcommand_error("history",
                            Error::plain(fmt::format("no run in {} has {} for stages matching `{}`", path,
                                                     *history_args.metric, history_args.stage)),
                            err);
  }
  print_series(*points, out);
  return kExitPassed;
}

int history_main(const std::vector<std::string>& args) { return history_main(args, std::cout, std::cerr); }

}  // namespace tipc::cli
