#include "plan/shell_words.h"

#include <fmt/format.h>

namespace tipc::plan {
namespace {

class Lexer {
 public:
  Lexer(std::string_view text, const ShellSplitOptions& options) : text_(text), options_(options) {}

  Result<ShellWords> run() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (is_separator(c)) {
        end_word();
        ++pos_;
      } else if (c == '#' && !in_word_) {
        note("# comment");
        break;
      } else if (c == '>') {
        TRY(redirect());
      } else {
        TRY(word_char());
      }
    }
    end_word();
    return out_;
  }

 private:
  bool is_separator(char c) const { return c == ' ' || c == '\t' || c == '\n' || (c == '|' && options_.pipe_is_space); }

  void note(std::string construct) {
    for (const auto& seen : out_.shell_constructs) {
      if (seen == construct) return;
    }
    out_.shell_constructs.push_back(std::move(construct));
  }

  void end_word() {
    if (in_word_) out_.words.push_back(word_);
    word_.clear();
    in_word_ = false;
    quoted_ = false;
  }

  Result<void> word_char() {
    const char c = text_[pos_];
    in_word_ = true;
    switch (c) {
      case '\'': return single_quoted();
      case '"': return double_quoted();
      case '\\':
        ++pos_;
        if (pos_ < text_.size()) word_ += text_[pos_++];
        quoted_ = true;
        return {};
      case '$': note("$ expansion"); break;
      case '`': note("` command substitution"); break;
      case ';': note("; command separator"); break;
      case '&': note("& background or &&"); break;
      case '|': note("| pipe"); break;
      case '<': note("< input redirection"); break;
      case '(':
      case ')': note("( ) subshell"); break;
      case '*':
      case '?': note("glob pattern"); break;
      default: break;
    }
    word_ += c;
    ++pos_;
    return {};
  }

  Result<void> single_quoted() {
    const std::size_t close = text_.find('\'', pos_ + 1);
    if (close == std::string_view::npos) return fail(Error::plain(fmt::format("unclosed single quote in: {}", text_)));
    word_.append(text_.substr(pos_ + 1, close - pos_ - 1));
    pos_ = close + 1;
    quoted_ = true;
    return {};
  }

  Result<void> double_quoted() {
    ++pos_;
    quoted_ = true;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      const char c = text_[pos_];
      if (c == '\\' && pos_ + 1 < text_.size() &&
          std::string_view("$`\"\\").find(text_[pos_ + 1]) != std::string_view::npos) {
        word_ += text_[pos_ + 1];
        pos_ += 2;
        continue;
      }
      if (c == '$') note("$ expansion");
      if (c == '`') note("` command substitution");
      word_ += c;
      ++pos_;
    }
    if (pos_ >= text_.size()) return fail(Error::plain(fmt::format("unclosed double quote in: {}", text_)));
    ++pos_;
    return {};
  }

  // `[fd]>file`, `[fd]>>file`, `[fd]>&N`. A word made only of digits right before
  // the `>` is the file descriptor, as in a shell.
  Result<void> redirect() {
    int fd = 1;
    if (in_word_ && !quoted_ && !word_.empty() && word_.find_first_not_of("0123456789") == std::string::npos) {
      fd = std::stoi(word_);
      word_.clear();
      in_word_ = false;
    } else {
      end_word();
    }
    ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '>') {
      note(">> append");
      ++pos_;
    }
    if (pos_ < text_.size() && text_[pos_] == '&') {
      ++pos_;
      std::string target;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) target += text_[pos_++];
      if (fd == 2 && target == "1")
        out_.stderr_to_stdout = true;
      else
        note(fmt::format("{}>&{} redirection", fd, target));
      return {};
    }
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
    std::size_t words_before = out_.words.size();
    while (pos_ < text_.size() && !is_separator(text_[pos_]) && text_[pos_] != '>') {
      TRY(word_char());
    }
    end_word();
    if (out_.words.size() == words_before)
      return fail(Error::plain(fmt::format("redirection without a file in: {}", text_)));
    std::string file = out_.words.back();
    out_.words.pop_back();
    if (fd == 1)
      out_.stdout_file = file;
    else
      note(fmt::format("{}> redirection", fd));
    return {};
  }

  std::string_view text_;
  ShellSplitOptions options_;
  std::size_t pos_ = 0;
  std::string word_;
  bool in_word_ = false;
  bool quoted_ = false;
  ShellWords out_;
};

}  // namespace

Result<ShellWords> split_shell_words(std::string_view text, const ShellSplitOptions& options) {
  return Lexer(text, options).run();
}

std::string quote_shell_word(const std::string& word) {
  if (!word.empty() && word.find_first_of(" \t'\"\\$`|;&<>()*?[]#") == std::string::npos) return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string join_shell_words(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& word : argv) out += (out.empty() ? "" : " ") + quote_shell_word(word);
  return out;
}

}  // namespace tipc::plan
