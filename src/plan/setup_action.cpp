#include "plan/setup_action.h"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "plan/path_relation.h"
#include "plan/shell_words.h"

namespace tipc::plan {
namespace {

using Words = std::vector<std::string>;

// The options of one tool, as getopt reads them: short letters cluster ("-rf"), a letter
// taking a value takes the rest of its word or the next word, a long option its "=value" or
// the next word. Options and operands may mix; "--" ends the options.
struct OptionTable {
  std::string_view flags;   // short letters without a value
  std::string_view valued;  // short letters with one
  std::vector<std::string_view> long_flags;
  std::vector<std::string_view> long_valued;
  // wget and curl have hundreds of switches; a long one not modelled here is kept as one.
  bool pass_unknown_long = false;
};

struct Option {
  std::string name;  // "-O", "--output-document"
  std::optional<std::string> value;
};

struct Scanned {
  std::vector<Option> options;
  std::vector<std::size_t> operands;  // indices into the scanned words

  bool has(std::initializer_list<std::string_view> names) const { return last(names) != nullptr; }
  const Option* last(std::initializer_list<std::string_view> names) const {
    const Option* found = nullptr;
    for (const Option& option : options) {
      if (std::ranges::find(names, option.name) != names.end()) found = &option;
    }
    return found;
  }
};

bool is_one_of(const std::vector<std::string_view>& names, std::string_view name) {
  return std::ranges::find(names, name) != names.end();
}

Error unreadable(const Words& argv, const std::string& why) {
  return Error::plain(fmt::format("{}: {} (in `{}`)", argv[0], why, join_shell_words(argv)));
}

Result<void> scan_long(const Words& argv, std::size_t& i, const OptionTable& table, Scanned& out) {
  const std::string& word = argv[i];
  const std::size_t equals = word.find('=');
  Option option{word.substr(0, equals), std::nullopt};
  if (equals != std::string::npos) {
    option.value = word.substr(equals + 1);
  } else if (is_one_of(table.long_valued, option.name)) {
    if (++i >= argv.size()) return fail(unreadable(argv, fmt::format("option '{}' needs a value", word)));
    option.value = argv[i];
  } else if (!is_one_of(table.long_flags, option.name) && !table.pass_unknown_long) {
    return fail(unreadable(argv, fmt::format("unknown option '{}'", word)));
  }
  out.options.push_back(std::move(option));
  return {};
}

Result<void> scan_short(const Words& argv, std::size_t& i, const OptionTable& table, Scanned& out) {
  const std::string word = argv[i];
  for (std::size_t j = 1; j < word.size(); ++j) {
    const std::string name = fmt::format("-{}", word[j]);
    if (table.valued.find(word[j]) != std::string_view::npos) {
      if (j + 1 < word.size()) {
        out.options.push_back({name, word.substr(j + 1)});
      } else if (++i < argv.size()) {
        out.options.push_back({name, argv[i]});
      } else {
        return fail(unreadable(argv, fmt::format("option '{}' needs a value", name)));
      }
      return {};
    }
    if (table.flags.find(word[j]) == std::string_view::npos) {
      return fail(unreadable(argv, fmt::format("unknown option '{}' in '{}'", name, word)));
    }
    out.options.push_back({name, std::nullopt});
  }
  return {};
}

Result<Scanned> scan(const Words& argv, const OptionTable& table, std::size_t first = 1) {
  Scanned out;
  bool options_ended = false;
  for (std::size_t i = first; i < argv.size(); ++i) {
    const std::string& word = argv[i];
    if (options_ended || word.size() < 2 || word[0] != '-') {
      out.operands.push_back(i);
    } else if (word == "--") {
      options_ended = true;
    } else if (word.starts_with("--")) {
      TRY(scan_long(argv, i, table, out));
    } else {
      TRY(scan_short(argv, i, table, out));
    }
  }
  return out;
}

Words operand_words(const Words& argv, const Scanned& scanned) {
  Words words;
  for (std::size_t index : scanned.operands) words.push_back(argv[index]);
  return words;
}

// The option's words to hand to another run of the tool ("--header", "X: y").
void keep_option(const Option& option, Words& into) {
  into.push_back(option.name);
  if (option.value) into.push_back(*option.value);
}

std::string parent_path(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_name(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path.substr(path.rfind('/') + 1);
}

// The file name a download of `url` gets by default: the last component of its path.
std::string url_file_name(const std::string& url) {
  const std::size_t scheme = url.find("://");
  const std::size_t host_end = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  if (host_end == std::string::npos) return "index.html";
  const std::string path = url.substr(host_end, url.find_first_of("?#", host_end) - host_end);
  const std::string name = path.substr(path.rfind('/') + 1);
  return name.empty() ? "index.html" : name;
}

SetupAction action_of(SetupKind kind, const Words& argv, const std::string& cwd) {
  SetupAction action;
  action.kind = kind;
  action.cwd = normalised_path(".", cwd);
  action.argv = argv;
  return action;
}

std::vector<std::string> paths_in(const std::string& cwd, const Words& words) {
  std::vector<std::string> paths;
  for (const auto& word : words) paths.push_back(normalised_path(cwd, word));
  return paths;
}

Result<SetupAction> parse_mkdir(const Words& argv, const std::string& cwd) {
  const auto scanned = TRY(scan(argv, {"pv", "m", {"--parents", "--verbose"}, {"--mode"}}));
  if (scanned.operands.empty()) return fail(unreadable(argv, "no directory to make"));
  auto action = action_of(SetupKind::kMakeDir, argv, cwd);
  action.operands = scanned.operands;
  action.writes = paths_in(action.cwd, operand_words(argv, scanned));
  return action;
}

Result<SetupAction> parse_rm(const Words& argv, const std::string& cwd) {
  const OptionTable table{
      "rRfidv", "", {"--recursive", "--force", "--dir", "--verbose", "--one-file-system", "--preserve-root"}, {}};
  const auto scanned = TRY(scan(argv, table));
  if (scanned.operands.empty()) return fail(unreadable(argv, "no path to remove"));
  auto action = action_of(SetupKind::kRemove, argv, cwd);
  action.operands = scanned.operands;
  action.removes = paths_in(action.cwd, operand_words(argv, scanned));
  return action;
}

// cp, mv and ln: SOURCE... DEST, or -t DIR SOURCE...
struct SourcesAndTarget {
  Words sources;
  std::string target;
};

Result<SourcesAndTarget> sources_and_target(const Words& argv, const Scanned& scanned, std::size_t least) {
  Words words = operand_words(argv, scanned);
  if (const Option* directory = scanned.last({"-t", "--target-directory"})) {
    if (words.empty()) return fail(unreadable(argv, "nothing to put into " + *directory->value));
    return SourcesAndTarget{words, *directory->value};
  }
  if (words.size() < least) return fail(unreadable(argv, "missing operand"));
  if (words.size() == 1) return SourcesAndTarget{words, base_name(words[0])};  // ln TARGET: a link here
  std::string target = words.back();
  words.pop_back();
  return SourcesAndTarget{words, target};
}

Result<SetupAction> parse_copy_or_move(const Words& argv, const std::string& cwd, SetupKind kind) {
  const OptionTable table =
      kind == SetupKind::kCopy
          ? OptionTable{"rRafpvnLPduTH",
                        "tS",
                        {"--recursive", "--archive", "--force", "--verbose", "--no-clobber", "--dereference",
                         "--no-dereference", "--preserve", "--update", "--parents", "--no-target-directory"},
                        {"--target-directory", "--suffix"}}
          : OptionTable{"finvuT",
                        "tS",
                        {"--force", "--interactive", "--no-clobber", "--verbose", "--update", "--no-target-directory"},
                        {"--target-directory", "--suffix"}};
  const auto scanned = TRY(scan(argv, table));
  const auto operands = TRY(sources_and_target(argv, scanned, 2));
  auto action = action_of(kind, argv, cwd);
  action.reads = paths_in(action.cwd, operands.sources);
  if (kind == SetupKind::kMove) action.removes = action.reads;
  action.writes = {normalised_path(action.cwd, operands.target)};
  return action;
}

Result<SetupAction> parse_ln(const Words& argv, const std::string& cwd) {
  const OptionTable table{"sfnvrTLPb",
                          "tS",
                          {"--symbolic", "--force", "--no-dereference", "--verbose", "--relative",
                           "--no-target-directory", "--logical", "--physical"},
                          {"--target-directory", "--suffix"}};
  const auto scanned = TRY(scan(argv, table));
  const auto operands = TRY(sources_and_target(argv, scanned, 1));
  auto action = action_of(SetupKind::kLink, argv, cwd);
  const std::string link = normalised_path(action.cwd, operands.target);
  // A symbolic link's relative target is read from the link's directory.
  const bool symbolic = scanned.has({"-s", "--symbolic"}) && !scanned.has({"-r", "--relative"});
  for (const auto& source : operands.sources) {
    action.reads.push_back(normalised_path(symbolic ? parent_path(link) : action.cwd, source));
  }
  action.writes = {link};
  return action;
}

Result<std::string> the_one_url(const Words& argv, const Scanned& scanned) {
  const Words urls = operand_words(argv, scanned);
  if (urls.empty()) return fail(unreadable(argv, "no URL"));
  if (urls.size() > 1) {
    return fail(unreadable(argv, fmt::format("one URL per call is replayed, found {}", urls.size())));
  }
  return urls[0];
}

// Options that change how a file is fetched, not where it goes: passed to the cache's fetch.
void keep_fetch_options(const Scanned& scanned, const std::vector<std::string_view>& names, Words& into) {
  for (const Option& option : scanned.options) {
    if (is_one_of(names, option.name)) keep_option(option, into);
  }
}

Result<SetupAction> parse_wget(const Words& argv, const std::string& cwd) {
  const OptionTable table{"qvcNS46",
                          "OPoatTUn",
                          {},
                          {"--output-document", "--directory-prefix", "--output-file", "--append-output", "--tries",
                           "--timeout", "--user-agent", "--header", "--user", "--password"},
                          true};
  const auto scanned = TRY(scan(argv, table));
  for (const Option& option : scanned.options) {
    if (is_one_of({"--recursive", "--mirror", "--input-file", "--page-requisites"}, option.name)) {
      return fail(unreadable(argv, fmt::format("'{}' is not replayed: one URL into one file is", option.name)));
    }
  }
  auto action = action_of(SetupKind::kDownload, argv, cwd);
  action.url = TRY(the_one_url(argv, scanned));
  std::string file = url_file_name(action.url);
  if (const Option* prefix = scanned.last({"-P", "--directory-prefix"})) file = *prefix->value + "/" + file;
  if (const Option* document = scanned.last({"-O", "--output-document"})) {
    if (*document->value == "-") return fail(unreadable(argv, "a download to standard output is not replayed"));
    file = *document->value;
  }
  action.output = normalised_path(action.cwd, file);
  action.writes = {action.output};
  for (const Option& option : scanned.options) {
    if (option.name == "--no-clobber" || (option.name == "-n" && option.value == "c")) action.no_clobber = true;
  }
  keep_fetch_options(scanned,
                     {"--no-check-certificate", "--header", "-U", "--user-agent", "--user", "--password", "-t",
                      "--tries", "-T", "--timeout", "-4", "-6", "--inet4-only", "--inet6-only"},
                     action.tool_options);
  return action;
}

Result<SetupAction> parse_curl(const Words& argv, const std::string& cwd) {
  const OptionTable table{"sSLfkOR#46",
                          "oHuAxmC",
                          {},
                          {"--output", "--header", "--user", "--user-agent", "--retry", "--retry-delay",
                           "--connect-timeout", "--max-time", "--proxy", "--output-dir", "--continue-at"},
                          true};
  const auto scanned = TRY(scan(argv, table));
  auto action = action_of(SetupKind::kDownload, argv, cwd);
  action.url = TRY(the_one_url(argv, scanned));
  std::string file;
  if (const Option* output = scanned.last({"-o", "--output"})) {
    file = *output->value;
  } else if (scanned.has({"-O", "--remote-name"})) {
    file = url_file_name(action.url);
  } else {
    return fail(unreadable(argv, "without -o or -O curl writes to standard output, which is not replayed"));
  }
  if (file == "-") return fail(unreadable(argv, "a download to standard output is not replayed"));
  if (const Option* directory = scanned.last({"--output-dir"})) file = *directory->value + "/" + file;
  action.output = normalised_path(action.cwd, file);
  action.writes = {action.output};
  keep_fetch_options(scanned,
                     {"-k", "--insecure", "-H", "--header", "-u", "--user", "-A", "--user-agent", "--retry",
                      "--retry-delay", "--connect-timeout", "-m", "--max-time", "-x", "--proxy", "-4", "-6"},
                     action.tool_options);
  return action;
}

// tar's old form, "tar zxf ARCHIVE": a first word of letters without a dash, whose letters
// that take a value take the following words in order. Rewritten as "-z -x -f ARCHIVE".
Words dashed_tar_words(const Words& argv, std::string_view valued) {
  if (argv.size() < 2 || argv[1].empty() || argv[1][0] == '-') return argv;
  Words out{argv[0]};
  std::size_t next_value = 2;
  for (char letter : argv[1]) {
    out.push_back(fmt::format("-{}", letter));
    if (valued.find(letter) != std::string_view::npos && next_value < argv.size()) out.push_back(argv[next_value++]);
  }
  out.insert(out.end(), argv.begin() + static_cast<std::ptrdiff_t>(next_value), argv.end());
  return out;
}

Result<SetupAction> parse_tar(const Words& argv, const std::string& cwd) {
  const OptionTable table{"xctrzjJvopmk",
                          "fCb",
                          {"--extract",
                           "--get",
                           "--create",
                           "--list",
                           "--gzip",
                           "--gunzip",
                           "--ungzip",
                           "--bzip2",
                           "--xz",
                           "--lzma",
                           "--zstd",
                           "--auto-compress",
                           "--verbose",
                           "--no-same-owner",
                           "--no-same-permissions",
                           "--same-owner",
                           "--preserve-permissions",
                           "--keep-old-files",
                           "--overwrite",
                           "--touch"},
                          {"--file", "--directory", "--blocking-factor"}};
  const Words words = dashed_tar_words(argv, table.valued);
  const auto scanned = TRY(scan(words, table));
  if (!scanned.has({"-x", "--extract", "--get"}) || scanned.has({"-c", "-t", "-r", "--create", "--list"})) {
    return fail(unreadable(argv, "only extraction (x) is replayed"));
  }
  const Option* file = scanned.last({"-f", "--file"});
  if (file == nullptr || *file->value == "-") return fail(unreadable(argv, "no archive file (f) to extract"));
  if (!scanned.operands.empty()) {
    return fail(
        unreadable(argv, fmt::format("extracting chosen members ('{}') is not replayed", words[scanned.operands[0]])));
  }
  auto action = action_of(SetupKind::kExtract, argv, cwd);
  action.archive = normalised_path(action.cwd, *file->value);
  action.destination = action.cwd;
  for (const Option& option : scanned.options) {  // each -C is relative to the one before
    if (option.name == "-C" || option.name == "--directory") {
      action.destination = normalised_path(action.destination, *option.value);
    }
  }
  action.reads = {action.archive};
  action.writes = {action.destination};
  return action;
}

Result<SetupAction> parse_unzip(const Words& argv, const std::string& cwd) {
  const auto scanned = TRY(scan(argv, {"oqn", "d", {}, {}}));
  const Words operands = operand_words(argv, scanned);
  if (operands.empty()) return fail(unreadable(argv, "no archive"));
  if (operands.size() > 1) {
    return fail(unreadable(argv, fmt::format("extracting chosen members ('{}') is not replayed", operands[1])));
  }
  auto action = action_of(SetupKind::kExtract, argv, cwd);
  action.archive = normalised_path(action.cwd, operands[0]);
  const Option* directory = scanned.last({"-d"});
  action.destination = normalised_path(action.cwd, directory ? *directory->value : ".");
  action.reads = {action.archive};
  action.writes = {action.destination};
  return action;
}

// The directory `git clone URL` makes: the URL's last component without ".git".
std::string clone_directory(const std::string& url) {
  std::string name = base_name(url);
  name = name.substr(name.rfind(':') + 1);  // host:repo
  if (name.ends_with(".git")) name.resize(name.size() - 4);
  return name;
}

Result<SetupAction> parse_git(const Words& argv, const std::string& cwd) {
  if (argv.size() < 2 || argv[1] != "clone") {
    const std::string subcommand = argv.size() < 2 ? "" : argv[1];
    return fail(unreadable(argv, fmt::format("only 'git clone' is replayed, not 'git {}'", subcommand)));
  }
  const OptionTable table{"qvn",
                          "bocj",
                          {"--quiet", "--verbose", "--recursive", "--recurse-submodules", "--single-branch",
                           "--no-single-branch", "--no-checkout", "--shallow-submodules", "--no-tags", "--progress"},
                          {"--depth", "--branch", "--origin", "--config", "--filter", "--jobs", "--shallow-since"}};
  const auto scanned = TRY(scan(argv, table, 2));
  const Words operands = operand_words(argv, scanned);
  if (operands.empty() || operands.size() > 2) return fail(unreadable(argv, "git clone takes a URL and a directory"));
  auto action = action_of(SetupKind::kClone, argv, cwd);
  action.url = operands[0];
  action.output = normalised_path(action.cwd, operands.size() == 2 ? operands[1] : clone_directory(operands[0]));
  if (action.output == action.cwd) return fail(unreadable(argv, "cannot tell the directory to clone into"));
  action.writes = {action.output};
  for (const Option& option : scanned.options) keep_option(option, action.tool_options);
  return action;
}

bool inside(const std::string& path, const std::string& root) {
  if (root == ".") return !path.starts_with('/') && path != ".." && !path.starts_with("../");
  if (path == root) return true;
  return path.starts_with(root == "/" ? root : root + "/");
}

}  // namespace

std::string to_string(SetupKind kind) {
  switch (kind) {
    case SetupKind::kMakeDir: return "make_dir";
    case SetupKind::kRemove: return "remove";
    case SetupKind::kCopy: return "copy";
    case SetupKind::kMove: return "move";
    case SetupKind::kLink: return "link";
    case SetupKind::kDownload: return "download";
    case SetupKind::kExtract: return "extract";
    case SetupKind::kClone: return "clone";
  }
  return "unknown";
}

Result<SetupAction> parse_setup_action(const std::vector<std::string>& argv, const std::string& cwd) {
  if (argv.empty()) return fail(Error::plain("an empty setup action"));
  const std::string program = base_name(argv[0]);
  if (program == "mkdir") return parse_mkdir(argv, cwd);
  if (program == "rm") return parse_rm(argv, cwd);
  if (program == "cp") return parse_copy_or_move(argv, cwd, SetupKind::kCopy);
  if (program == "mv") return parse_copy_or_move(argv, cwd, SetupKind::kMove);
  if (program == "ln") return parse_ln(argv, cwd);
  if (program == "wget") return parse_wget(argv, cwd);
  if (program == "curl") return parse_curl(argv, cwd);
  if (program == "tar") return parse_tar(argv, cwd);
  if (program == "unzip") return parse_unzip(argv, cwd);
  if (program == "git") return parse_git(argv, cwd);
  return fail(
      Error::plain(fmt::format("'{}' is not a housekeeping program tipc-run replays (mkdir, rm, cp, mv, ln, "
                               "wget, curl, tar, unzip, git clone)",
                               argv[0])));
}

Result<SetupAction> parse_setup_action_word(const std::string& word) {
  const auto split = TRY(split_shell_words(word, {.pipe_is_space = false}));
  const Words& words = split.words;
  if (words.size() < 4 || words[0] != "cd" || words[2] != "&&" || split.stdout_file) {
    return fail(Error::plain(fmt::format("a setup action is 'cd DIR && PROGRAM ARG...', got '{}'", word)));
  }
  return parse_setup_action(Words(words.begin() + 3, words.end()), words[1]);
}

std::string setup_action_word(const SetupAction& action) {
  return "cd " + quote_shell_word(action.cwd) + " && " + join_shell_words(action.argv);
}

SetupAction relative_to_root(SetupAction action, const std::string& repo_root) {
  if (repo_root.empty() || repo_root == ".") return action;
  // As the trace spells it: an absolute path, or a stand-in such as "<REPO_ROOT>".
  const std::string root = repo_root.starts_with('/') ? normalised_path("/", repo_root) : repo_root;
  const auto relative = [&](std::string& path) {
    if (path == root)
      path = ".";
    else if (path.starts_with(root + "/"))
      path = path.substr(root.size() + 1);
  };
  for (auto* paths : {&action.reads, &action.writes, &action.removes}) std::ranges::for_each(*paths, relative);
  for (auto* path : {&action.output, &action.archive, &action.destination}) relative(*path);
  return action;
}

std::optional<std::string> refusal(const SetupAction& action, const std::vector<std::string>& allowed_roots) {
  const std::string call = join_shell_words(action.argv);
  const auto allowed = [&](const std::string& path) {
    return inside(path, ".") || std::ranges::any_of(allowed_roots, [&](const std::string& root) {
             return inside(path, normalised_path(".", root));
           });
  };
  for (const auto& path : action.removes) {
    if (path == ".") return fmt::format("{} removes the repository root", call);
    if (!allowed(path)) {
      return fmt::format("{} removes a path outside the repository and its output tree ({})", call, path);
    }
  }
  for (const auto& path : action.writes) {
    if (!allowed(path)) {
      return fmt::format("{} writes a path outside the repository and its output tree ({})", call, path);
    }
  }
  return std::nullopt;
}

}  // namespace tipc::plan
