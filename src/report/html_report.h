#pragma once
// report.html: one self-contained page of a run for people. Inline CSS and inline SVG
// only; no scripts, fonts, images or anything else fetched (a Content-Security-Policy
// forbids it), so the file can be mailed or archived as it is. It shows the verdict, the
// run's facts, per config and mode the stages, train curves, eval results, inference
// latency, alignment checks with their limits, weight-initialisation histograms and the
// log tails of the failures. Rendering is deterministic: every time comes from the model.
#include <string>

#include "report/run_report.h"

namespace tipc::report {

std::string render_html_report(const RunReport& report);

}  // namespace tipc::report
