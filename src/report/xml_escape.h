#pragma once
// Any bytes as XML 1.0 text (the JUnit report carries log tails, which may hold anything).
#include <string>
#include <string_view>

namespace tipc::report {

enum class XmlContext { kText, kAttribute };

// Markup characters (& < > " ') become entities. Invalid UTF-8 becomes U+FFFD.
// Characters XML 1.0 forbids even as references (C0 controls other than tab, LF and CR,
// U+FFFE, U+FFFF) are written visibly as "\x1b" or "\uFFFE", Catch2's choice, so a log's
// colour codes stay readable. CR, and in attributes tab and LF, become character
// references: a parser would otherwise normalise them away.
std::string xml_escape(std::string_view text, XmlContext context);

}  // namespace tipc::report
