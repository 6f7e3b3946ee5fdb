#pragma once
// A thin owner of an SQLite connection and its prepared statements (libsqlite3's C API):
// errors become Result, handles are released on every path. Nothing else includes sqlite3.h.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/error.h"

struct sqlite3;
struct sqlite3_stmt;

namespace tipc::history {

// A bound parameter or a read column: NULL, an integer, a real, text, or a blob.
using Value = std::variant<std::monostate, std::int64_t, double, std::string, std::vector<std::uint8_t>>;

class Statement {
 public:
  Result<void> bind(const std::vector<Value>& values);  // to ?1, ?2, ...
  Result<bool> step();                                  // true while it yields a row
  Result<void> reset();                                 // for the next bind

  std::int64_t integer(int column) const;
  double real(int column) const;
  std::optional<double> optional_real(int column) const;
  std::string text(int column) const;
  std::vector<std::uint8_t> blob(int column) const;

 private:
  friend class Database;
  Statement(sqlite3* db, sqlite3_stmt* statement);
  sqlite3* db_;
  std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> statement_;
};

class Database {
 public:
  // Opens the file (creating it when `create`), with a busy timeout so that a concurrent
  // writer is waited for.
  static Result<Database> open(const std::string& path, int busy_timeout_ms, bool create = true);

  Result<void> execute(std::string_view sql);  // one or more statements, no results
  // Switches the file to write-ahead logging. The journal mode changes under an exclusive
  // lock that SQLite does not wait for (the busy timeout does not apply): two runs that
  // create the file at once would fail, so a busy file is tried again until the timeout.
  Result<void> use_wal();
  Result<Statement> prepare(std::string_view sql);
  std::int64_t last_insert_id() const;
  const std::string& path() const { return path_; }

 private:
  Database(std::string path, sqlite3* db, int busy_timeout_ms);
  std::string path_;
  int busy_timeout_ms_;
  std::unique_ptr<sqlite3, int (*)(sqlite3*)> db_;
};

// The one-line reason SQLite gives for the last failure on `db`, with the file.
Error sqlite_error(sqlite3* db, const std::string& path, std::string_view doing);

}  // namespace tipc::history
