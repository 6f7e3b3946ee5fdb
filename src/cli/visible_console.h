#pragma once
// tipc-run's console is inert: what it prints through std::cout and std::cerr (errors that
// name a path, a config value or an archive's entry, the dry run's plan, the data steps,
// the verdict, every subcommand's output) goes through a VisibleTextBuffer, which writes it
// as visible text (core/visible_text.h). The console reporter writes to stdout itself and
// makes its text visible before adding its own colours (report/console_reporter.h).
#include <streambuf>
#include <string>

namespace tipc::cli {

// A stream buffer that passes what is written on to `target` at once, as visible text. A
// UTF-8 character cut between two writes waits for its rest; a flush passes everything on.
class VisibleTextBuffer : public std::streambuf {
 public:
  explicit VisibleTextBuffer(std::streambuf* target) : target_(target) {}

 protected:
  std::streamsize xsputn(const char* text, std::streamsize count) override;
  int_type overflow(int_type c) override;
  int sync() override;

 private:
  // Passes `pending_` on but for a UTF-8 character it ends in the middle of (all if `whole`).
  bool pass_on(bool whole);

  std::streambuf* target_;
  std::string pending_;
};

// Puts std::cout and std::cerr behind a VisibleTextBuffer each, for the rest of the
// process. Called once, first thing in main().
void make_console_streams_visible();

}  // namespace tipc::cli
