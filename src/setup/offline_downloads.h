#pragma once
// --offline before a run: a setup stage that would download (or clone) something the
// download cache does not hold is UNSUPPORTED with the URL, and so are the stages after it,
// instead of starting and failing. `tipc-run setup --offline` refuses the same at run time.
#include <string>

#include "data/download_cache.h"
#include "plan/plan.h"

namespace tipc::setup {

// `repo_root`: where the setup stages' action paths start.
void refuse_uncached_downloads(plan::Plan& plan, const std::string& repo_root, const data::DownloadCache& cache);

}  // namespace tipc::setup
