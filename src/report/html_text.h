#pragma once
// Text made safe for report.html. Stage ids, reasons, paths and log tails may hold any
// bytes: invalid UTF-8 becomes U+FFFD, control characters become visible symbols, and
// & < > " ' are escaped, so the result is safe in element content and in quoted attributes.
#include <string>
#include <string_view>

namespace tipc::report {

std::string html_escape(std::string_view text);

// Log text keeps its lines: carriage returns end lines (CRLF counts once) and terminal
// colour codes (ESC [ ... m) are dropped before escaping.
std::string html_escape_log(std::string_view text);

// A file:// URL for an absolute path, every byte outside [A-Za-z0-9-._~/] percent-encoded.
std::string file_url(std::string_view path);

// `path` (absolute) as a URL relative to the directory `base_dir` (absolute), encoded as
// file_url encodes: "train/train.log", "../model/x.log". A page that links so keeps its links
// wherever its directory tree is copied. file_url(path) when either is not absolute.
std::string relative_url(std::string_view path, std::string_view base_dir);

}  // namespace tipc::report
