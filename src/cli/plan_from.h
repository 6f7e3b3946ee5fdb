#pragma once
// Who plans a config's commands (--plan-from): a name shared by the options and the suite's
// request, which the options fill.

namespace tipc::cli {

enum class PlanFrom { kAuto, kRunner, kDialect };

}  // namespace tipc::cli
