#pragma once
// report.html: one self-contained page of a run for people. Inline CSS and inline SVG
// only; no scripts, fonts, images or anything else fetched (a Content-Security-Policy
// forbids it), so the file can be mailed or archived as it is. It shows the verdict, the
// run's facts, per config and mode the stages, train curves, eval results, inference
// latency, alignment checks with their limits, weight-initialisation histograms and the
// log tails of the failures; with the run history, the gated figures over the last runs
// (trend_html.h). Rendering is deterministic: every time comes from the model.
#include <string>
#include <string_view>

#include "report/run_report.h"

namespace tipc::report {

std::string render_html_report(const RunReport& report);

// The page's start up to <body>: the Content-Security-Policy and the one stylesheet every
// tipc-run page shares (report.html, `tipc-run history --html`'s page); `title` is escaped.
std::string html_page_head(std::string_view title);

}  // namespace tipc::report
