#include "history/sqlite_db.h"

#include <sqlite3.h>

#include <chrono>
#include <thread>

#include <fmt/format.h>

namespace tipc::history {

Error sqlite_error(sqlite3* db, const std::string& path, std::string_view doing) {
  return Error::plain(fmt::format("{}: {}: {}", path, doing, db ? sqlite3_errmsg(db) : "out of memory"));
}

Statement::Statement(sqlite3* db, sqlite3_stmt* statement) : db_(db), statement_(statement, sqlite3_finalize) {}

Result<void> Statement::bind(const std::vector<Value>& values) {
  sqlite3_stmt* s = statement_.get();
  for (std::size_t i = 0; i < values.size(); ++i) {
    const int at = static_cast<int>(i + 1);
    const Value& value = values[i];
    int rc = SQLITE_OK;
    if (const auto* n = std::get_if<std::int64_t>(&value))
      rc = sqlite3_bind_int64(s, at, *n);
    else if (const auto* d = std::get_if<double>(&value))
      rc = sqlite3_bind_double(s, at, *d);
    else if (const auto* t = std::get_if<std::string>(&value)) {
      rc = sqlite3_bind_text(s, at, t->data(), static_cast<int>(t->size()), SQLITE_TRANSIENT);
    } else if (const auto* b = std::get_if<std::vector<std::uint8_t>>(&value)) {
      rc = sqlite3_bind_blob(s, at, b->data(), static_cast<int>(b->size()), SQLITE_TRANSIENT);
    } else {
      rc = sqlite3_bind_null(s, at);
    }
    if (rc != SQLITE_OK) return fail(sqlite_error(db_, sqlite3_db_filename(db_, "main"), "binding a value"));
  }
  return {};
}

Result<bool> Statement::step() {
  const int rc = sqlite3_step(statement_.get());
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return fail(sqlite_error(db_, sqlite3_db_filename(db_, "main"), "running a statement"));
}

Result<void> Statement::reset() {
  sqlite3_reset(statement_.get());
  sqlite3_clear_bindings(statement_.get());
  return {};
}

std::int64_t Statement::integer(int column) const { return sqlite3_column_int64(statement_.get(), column); }
double Statement::real(int column) const { return sqlite3_column_double(statement_.get(), column); }

std::optional<double> Statement::optional_real(int column) const {
  if (sqlite3_column_type(statement_.get(), column) == SQLITE_NULL) return std::nullopt;
  return real(column);
}

std::string Statement::text(int column) const {
  const auto* text = sqlite3_column_text(statement_.get(), column);
  return text ? std::string(reinterpret_cast<const char*>(text), sqlite3_column_bytes(statement_.get(), column)) : "";
}

std::vector<std::uint8_t> Statement::blob(int column) const {
  const auto* data = static_cast<const std::uint8_t*>(sqlite3_column_blob(statement_.get(), column));
  const int size = sqlite3_column_bytes(statement_.get(), column);
  return data ? std::vector<std::uint8_t>(data, data + size) : std::vector<std::uint8_t>{};
}

Database::Database(std::string path, sqlite3* db, int busy_timeout_ms)
    : path_(std::move(path)), busy_timeout_ms_(busy_timeout_ms), db_(db, sqlite3_close) {}

Result<Database> Database::open(const std::string& path, int busy_timeout_ms, bool create) {
  sqlite3* db = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0);
  const int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  Database database(path, db, busy_timeout_ms);  // owns it, also on failure
  if (rc != SQLITE_OK) return fail(sqlite_error(db, path, "cannot open the run history"));
  sqlite3_busy_timeout(db, busy_timeout_ms);
  sqlite3_extended_result_codes(db, 1);
  return database;
}

Result<void> Database::execute(std::string_view sql) {
  char* message = nullptr;
  const std::string text(sql);
  if (sqlite3_exec(db_.get(), text.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string why = message ? message : "unknown error";
    sqlite3_free(message);
    return fail(Error::plain(fmt::format("{}: {}", path_, why)));
  }
  return {};
}

Result<void> Database::use_wal() {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(busy_timeout_ms_);
  for (;;) {
    const int rc = sqlite3_exec(db_.get(), "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
    if (rc == SQLITE_OK) return {};
    const bool busy = (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED;
    if (!busy || std::chrono::steady_clock::now() >= deadline) {
      return fail(sqlite_error(db_.get(), path_, "switching to write-ahead logging"));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

Result<Statement> Database::prepare(std::string_view sql) {
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(db_.get(), sql.data(), static_cast<int>(sql.size()), &statement, nullptr) != SQLITE_OK) {
    return fail(sqlite_error(db_.get(), path_, "preparing a statement"));
  }
  return Statement(db_.get(), statement);
}

std::int64_t Database::last_insert_id() const { return sqlite3_last_insert_rowid(db_.get()); }

}  // namespace tipc::history
