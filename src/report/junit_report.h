#pragma once
// junit.xml for CI systems (Jenkins, GitLab): <testsuites>, one <testsuite> per config and
// mode, one <testcase> per stage (check stages included):
//
//   FAIL                  <failure message="reason" type="FAIL">failing check values, log tail</failure>
//   TIMEOUT, UNRESOLVED   <error message="reason" type="TIMEOUT">log tail</error>
//   UNSUPPORTED, SKIPPED  <skipped message="reason"/>
//
// classname is the config path without its extension, a dot, the mode (Jenkins shows the
// part before the last dot as the package). Check values go to <system-out>. It follows
// the structure of Jenkins' JUnit schema (tests/report/junit.xsd checks it).
#include <string>

#include "report/run_report.h"

namespace tipc::report {

std::string render_junit_report(const RunReport& report);

}  // namespace tipc::report
