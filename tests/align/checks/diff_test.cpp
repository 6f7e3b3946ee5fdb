// The diff engine against the reports the real reprod_log printed (align-samples/expected),
// plus tipc-run's strict rules and the `diff` command's exit codes.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "align/checks/diff.h"
#include "align/checks/diff_log.h"
#include "align/io/py_repr.h"
#include "align/numeric/leaf_diff.h"
#include "align/numeric/parallel_blocks.h"
#include "align/numeric/reduce.h"
#include "cli/diff_command.h"
#include "compat/reprod_log_rules.h"
#include "support/float_bytes.h"
#include "support/npy_file.h"
#include "support/paths.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::align {
namespace {
namespace TIPC_TEST_FILE {

namespace fs = std::filesystem;

std::string samples_dir() { return test::shared_dir() + "/align-samples"; }
std::string cases_dir() { return samples_dir() + "/cases"; }

#define SKIP_WITHOUT_SAMPLES()                                          \
  if (!fs::exists(cases_dir() + "/cases.json"))                         \
  GTEST_SKIP() << "SKIPPED LOUDLY: " << cases_dir()                     \
               << "/cases.json is missing; the reprod_log conformance " \
                  "cases cannot run"

// Every line's "[YYYY/MM/DD HH:MM:SS] " becomes "[TS] " (README: "Comparing logs").
std::string normalise_timestamps(const std::string& text) {
  static const std::regex stamp(R"((^|\n)\[\d{4}/\d\d/\d\d \d\d:\d\d:\d\d\] )");
  return std::regex_replace(text, stamp, "$1[TS] ");
}

struct Case {
  std::string name, file1, file2, method, outcome, expected;
  double threshold = 1e-6;
  int report_calls = 1;
};

std::string method_of(const nlohmann::json& method) {
  if (method.is_string()) return method.get<std::string>();
  std::string joined;
  for (const auto& m : method) joined += (joined.empty() ? "" : ",") + m.get<std::string>();
  return joined;
}

std::vector<Case> load_cases() {
  const auto json = nlohmann::json::parse(test::slurp(cases_dir() + "/cases.json"));
  std::vector<Case> cases;
  for (const auto& c : json) {
    cases.push_back(Case{c["case"], cases_dir() + "/" + c["file1"].get<std::string>(),
                         cases_dir() + "/" + c["file2"].get<std::string>(), method_of(c["diff_method"]), c["outcome"],
                         test::slurp(cases_dir() + "/" + c["expected"].get<std::string>()), c["diff_threshold"],
                         c["report_calls"]});
  }
  return cases;
}

Result<DiffResult> run_case(const Case& c, bool compat) {
  return compare_files(c.file1, c.file2, DiffOptions{c.method, c.threshold, compat::diff_rules(compat), {}});
}

std::string stdout_of(const DiffResult& result) {
  return normalise_timestamps(render_diff_stdout(result, "2000/01/01 00:00:00"));
}

// Python logging adds a handler per report() call, so the 2nd call prints every line twice.
// tipc-run does not reproduce that; the expected file must be our report, then each of its
// lines doubled.
std::string with_handler_pileup(const std::string& report) {
  std::string doubled;
  std::istringstream lines(report);
  for (std::string line; std::getline(lines, line);) doubled += line + "\n" + line + "\n";
  return report + doubled;
}

// For reprod_log's crashes: the final exception line it printed, and what tipc-run's
// diagnostic must say instead (key named, condition recognisable).
struct ExpectedError {
  std::string python_last_line_prefix;
  std::string our_message;
};
const std::map<std::string, ExpectedError>& expected_errors() {
  static const std::map<std::string, ExpectedError> errors{
      {"missing", {"AssertionError: k in data1 but not found in data2", "key 'y' of "}},
      {"missing_nested", {"AssertionError", "key 'd.y' of "}},
      {"typemismatch", {"AssertionError", "key 'e' has different types"}},
      {"pyfloat", {"NotImplementedError", "key 'e': only arrays and dicts can be compared"}},
      {"bool", {"TypeError: numpy boolean subtract", "numpy boolean subtract"}},
      {"empty", {"ValueError: zero-size array to reduction operation maximum", "zero-size array"}},
      {"mismatch",
       {"ValueError: operands could not be broadcast together with shapes (2,3) (4,) ",
        "operands could not be broadcast together with shapes (2,3) (4,) "}},
  };
  return errors;
}

std::string last_line(const std::string& text) {
  const std::string trimmed = text.substr(0, text.find_last_not_of('\n') + 1);
  return trimmed.substr(trimmed.rfind('\n') + 1);
}

void check_log_case(const Case& c) {
  const auto result = run_case(c, /*compat=*/true);
  ASSERT_TRUE(result.has_value()) << result.error().str();
  const std::string ours = stdout_of(*result);
  const std::string expected = normalise_timestamps(c.expected);
  if (c.report_calls == 2) {
    EXPECT_EQ(with_handler_pileup(ours), expected);
  } else {
    EXPECT_EQ(ours, expected);
  }
}

void check_error_case(const Case& c) {
  if (c.name == "leaflike") {
    // reprod_log mistakes {'mean','min','max'} dicts for leaves and crashes after "s: ";
    // tipc-run keeps dicts and leaves apart and reports an ordinary nested dict.
    const auto result = run_case(c, true);
    ASSERT_TRUE(result.has_value()) << result.error().str();
    const std::string ours = stdout_of(*result);
    EXPECT_EQ(ours.substr(0, ours.find('\n')), "[TS] root INFO: s");
    EXPECT_NE(ours.find("[TS] root INFO: \tmean: \n[TS] root INFO: \t\tmean diff: check passed: True, value: 0.0\n"),
              std::string::npos)
        << ours;
    EXPECT_TRUE(result->passed);
    return;
  }
  const auto found = expected_errors().find(c.name);
  ASSERT_NE(found, expected_errors().end()) << "no expectation for error case " << c.name;
  EXPECT_EQ(last_line(c.expected).rfind(found->second.python_last_line_prefix, 0), 0u) << last_line(c.expected);
  for (const bool compat : {true, false}) {
    const auto result = run_case(c, compat);
    ASSERT_FALSE(result.has_value()) << "compat=" << compat << " expected an error";
    EXPECT_EQ(result.error().exit_code, kExitFailed);
    EXPECT_NE(result.error().str().find(found->second.our_message), std::string::npos) << result.error().str();
  }
}

TEST(DiffConformance, EveryExpectedReportMatchesInCompatMode) {
  SKIP_WITHOUT_SAMPLES();
  const auto cases = load_cases();
  ASSERT_EQ(cases.size(), 25u);
  for (const Case& c : cases) {
    SCOPED_TRACE("case " + c.name);
    if (c.outcome == "log") {
      check_log_case(c);
    } else {
      check_error_case(c);
    }
  }
}

// Strict mode prints the same report wherever reprod_log is right.
TEST(DiffConformance, StrictModeMatchesWhereReprodLogIsRight) {
  SKIP_WITHOUT_SAMPLES();
  // fortran_mean_f32: DiffStrict.AFortranOrderedPairsMeanIsSummedInCOrder.
  const std::set<std::string> differs{"nan", "dtypes", "extra_nested", "twice", "fortran_mean_f32"};
  for (const Case& c : load_cases()) {
    if (c.outcome != "log" || differs.count(c.name) != 0) continue;
    SCOPED_TRACE("case " + c.name);
    const auto result = run_case(c, false);
    ASSERT_TRUE(result.has_value()) << result.error().str();
    EXPECT_EQ(stdout_of(*result), normalise_timestamps(c.expected));
  }
}

Case find_case(const std::string& name) {
  for (const Case& c : load_cases()) {
    if (c.name == name) return c;
  }
  ADD_FAILURE() << "no case " << name;
  return {};
}

TEST(DiffStrict, NanFails) {
  SKIP_WITHOUT_SAMPLES();
  const auto result = run_case(find_case("nan"), false);
  ASSERT_TRUE(result.has_value());
  EXPECT_FALSE(result->passed);
  EXPECT_EQ(stdout_of(*result),
            "[TS] root INFO: x: \n[TS] root INFO: \tmean diff: check passed: False, value: nan\n"
            "[TS] root INFO: diff check failed\n");
  EXPECT_NE(result->entries.front().reason.find("NaN"), std::string::npos);
}

TEST(DiffStrict, MissingTopLevelKeyIsNamedWithBothFiles) {
  SKIP_WITHOUT_SAMPLES();
  const Case c = find_case("missing");
  const auto result = run_case(c, false);
  ASSERT_FALSE(result.has_value());
  const std::string message = result.error().str();
  EXPECT_NE(message.find("key 'y'"), std::string::npos) << message;
  EXPECT_NE(message.find(c.file1), std::string::npos) << message;
  EXPECT_NE(message.find(c.file2), std::string::npos) << message;
  EXPECT_EQ(result.error().diagnostics.front().key, "y");
}

TEST(DiffStrict, ExtraNestedKeyFailsButCompatIgnoresIt) {
  SKIP_WITHOUT_SAMPLES();
  const Case c = find_case("extra_nested");
  const auto strict = run_case(c, false);
  ASSERT_FALSE(strict.has_value());
  EXPECT_NE(strict.error().str().find("key 'd.y'"), std::string::npos) << strict.error().str();
  const auto compat = run_case(c, true);
  ASSERT_TRUE(compat.has_value());
  EXPECT_TRUE(compat->passed);
}

TEST(DiffStrict, IntegerDiffIsExactAndWarned) {
  SKIP_WITHOUT_SAMPLES();
  const auto result = run_case(find_case("dtypes"), false);
  ASSERT_TRUE(result.has_value());
  const std::string text = stdout_of(*result);
  EXPECT_NE(text.find("[TS] root INFO: u8: \n[TS] root INFO: \tmin diff: check passed: False, value: 1\n"),
            std::string::npos)
      << text;
  ASSERT_FALSE(result->warnings.empty());
  EXPECT_NE(result->warnings.front().find("wrap around"), std::string::npos);
}

// reprod_log sums the mean of a Fortran-ordered pair in memory order; the default sums it in
// C order, as for any other layout of the same values
// (DiffLeaf.TheMeanOfTheSameValuesIsTheSameInEveryLayout): only the last digits differ.
TEST(DiffStrict, AFortranOrderedPairsMeanIsSummedInCOrder) {
  SKIP_WITHOUT_SAMPLES();
  const Case c = find_case("fortran_mean_f32");
  const auto result = run_case(c, false);
  ASSERT_TRUE(result.has_value()) << result.error().str();
  const std::string ours = stdout_of(*result), reprod_log = normalise_timestamps(c.expected);
  EXPECT_NE(ours, reprod_log);
  const auto value = [](const std::string& log) { return std::stod(log.substr(log.find("value: ") + 7)); };
  EXPECT_NEAR(value(ours), value(reprod_log), 1e-6);
}

TEST(DiffStrict, TransposeLineGoesToStdoutOnly) {
  SKIP_WITHOUT_SAMPLES();
  const auto result = run_case(find_case("transpose"), false);
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(render_diff_stdout(*result, "T").rfind("transpose sub_data1\n", 0), 0u);
  EXPECT_EQ(render_diff_log(*result, "T").find("transpose"), std::string::npos);
}

// ---- the command ---------------------------------------------------------------------

struct CommandRun {
  int code = -1;
  std::string out, err;
};

CommandRun diff_command(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int code = cli::diff_main(args, out, err);
  return {code, out.str(), err.str()};
}

TEST(DiffCommand, ExitCodesFollowTheVerdict) {
  SKIP_WITHOUT_SAMPLES();
  EXPECT_EQ(diff_command({samples_dir() + "/result_1.npy", samples_dir() + "/result_2.npy"}).code, kExitFailed);
  EXPECT_EQ(diff_command({samples_dir() + "/proto2_result.npy", samples_dir() + "/proto5_result.npy"}).code,
            kExitPassed);
  const std::string nan1 = cases_dir() + "/nan_1.npy", nan2 = cases_dir() + "/nan_2.npy";
  EXPECT_EQ(diff_command({nan1, nan2}).code, kExitFailed);
  EXPECT_EQ(diff_command({nan1, nan2, "--compat"}).code, kExitPassed);
  const auto missing = diff_command({cases_dir() + "/missing_1.npy", cases_dir() + "/missing_2.npy"});
  EXPECT_EQ(missing.code, kExitFailed);
  EXPECT_NE(missing.err.find("key 'y'"), std::string::npos) << missing.err;
}

TEST(DiffCommand, MethodAndThresholdOptions) {
  SKIP_WITHOUT_SAMPLES();
  const Case c = find_case("threshold_boundary_f32");
  EXPECT_EQ(diff_command({c.file1, c.file2, "--threshold", "0.0015"}).code, kExitFailed);
  EXPECT_EQ(diff_command({c.file1, c.file2, "--threshold", "0.0016"}).code, kExitPassed);
  const auto minmax = diff_command(
      {samples_dir() + "/result_1.npy", samples_dir() + "/result_2.npy", "--method", "min,max", "--compat"});
  EXPECT_EQ(normalise_timestamps(minmax.out), normalise_timestamps(find_case("minmax").expected));
}

TEST(DiffCommand, LogFileIsWrittenWithoutCompareTimeLines) {
  SKIP_WITHOUT_SAMPLES();
  test::TempDir dir;
  const std::string log = (dir.path() / "sub" / "diff.txt").string();
  const Case c = find_case("transpose");
  const auto run = diff_command({c.file1, c.file2, "--log", log, "--compat"});
  EXPECT_EQ(run.code, kExitFailed);
  EXPECT_EQ(normalise_timestamps(run.out), normalise_timestamps(c.expected));
  const std::string logged = test::slurp(log);
  EXPECT_EQ("transpose sub_data1\n" + normalise_timestamps(logged), normalise_timestamps(c.expected));
  for (const auto& entry : fs::directory_iterator(dir.path() / "sub")) {
    EXPECT_EQ(entry.path().filename(), "diff.txt") << "temp file left behind";
  }
}

TEST(DiffCommand, JsonFileCarriesEveryKeysValuesAndVerdict) {
  SKIP_WITHOUT_SAMPLES();
  test::TempDir dir;
  const std::string json_path = (dir.path() / "diff.json").string();
  const Case c = find_case("threshold_boundary_f32");
  ASSERT_EQ(diff_command({c.file1, c.file2, "--threshold", "0.0015", "--method", "all", "--json", json_path}).code,
            kExitFailed);
  const auto json = nlohmann::json::parse(test::slurp(json_path));
  EXPECT_EQ(json["check"], "diff");
  EXPECT_EQ(json["threshold"], 0.0015);
  EXPECT_FALSE(json["passed"].get<bool>());
  ASSERT_FALSE(json["keys"].empty());
  const auto& key = json["keys"][0];
  EXPECT_FALSE(key["passed"].get<bool>());
  EXPECT_GT(key["values"]["max"].get<double>(), 0.0015);
  EXPECT_TRUE(key["values"].contains("min") && key["values"].contains("mean"));
  EXPECT_NE(key["reason"].get<std::string>().find("threshold"), std::string::npos);
}

TEST(DiffCommand, BadInputExitsTwoWithAClearMessage) {
  SKIP_WITHOUT_SAMPLES();
  const std::string good = samples_dir() + "/result_1.npy";
  const auto no_file = diff_command({good, "/nonexistent/result.npy"});
  EXPECT_EQ(no_file.code, kExitUsage);
  EXPECT_NE(no_file.err.find("/nonexistent/result.npy"), std::string::npos) << no_file.err;
  const auto plain = diff_command({good, samples_dir() + "/plain_f32.npy"});
  EXPECT_EQ(plain.code, kExitUsage);
  EXPECT_NE(plain.err.find("not a reprod_log result"), std::string::npos) << plain.err;
  EXPECT_NE(plain.err.find("plain_f32.npy"), std::string::npos) << plain.err;
  test::TempDir dir;
  const auto garbage = diff_command({good, dir.write("garbage.npy", "hello")});
  EXPECT_EQ(garbage.code, kExitUsage) << garbage.err;
  EXPECT_EQ(diff_command({good, good, "--method", "median"}).code, kExitUsage);
  EXPECT_EQ(diff_command({good}).code, kExitUsage);
  EXPECT_EQ(diff_command({good, good, "--bogus"}).code, kExitUsage);
}

// reprod_log logs a key with str(key) and finds it in the other file with Python's dict
// lookup, so 7 matches 7.0 and (1, 'a') matches (1.0, 'a'), while the str '7' does not.
TEST(DiffKeys, ScalarKeysPrintLikeStrAndMatchByValue) {
  test::TempDir dir;
  dir.write("make.py", R"(import numpy as np
x = np.array([1.0, 2.0], dtype=np.float32)
np.save("a.npy", {7: x, (1, 'a'): x + 1, "n": {True: x, None: x, b"k": x}})
np.save("b.npy", {7.0: x, (1.0, 'a'): x + 1, "n": {1: x, None: x, b"k": x}})
np.save("c.npy", {"7": x, (1, 'a'): x + 1, "n": {True: x, None: x, b"k": x}})
)");
  ASSERT_EQ(std::system(("cd " + test::shell_quote(dir.path().string()) + " && /usr/bin/python3 make.py").c_str()), 0);
  const std::string a = (dir.path() / "a.npy").string();
  const auto run = diff_command({a, (dir.path() / "b.npy").string()});
  EXPECT_EQ(run.code, kExitPassed) << run.err;
  EXPECT_EQ(normalise_timestamps(run.out),
            "[TS] root INFO: 7: \n[TS] root INFO: \tmean diff: check passed: True, value: 0.0\n"
            "[TS] root INFO: (1, 'a'): \n[TS] root INFO: \tmean diff: check passed: True, value: 0.0\n"
            "[TS] root INFO: n\n"
            "[TS] root INFO: \tTrue: \n[TS] root INFO: \t\tmean diff: check passed: True, value: 0.0\n"
            "[TS] root INFO: \tNone: \n[TS] root INFO: \t\tmean diff: check passed: True, value: 0.0\n"
            "[TS] root INFO: \tb'k': \n[TS] root INFO: \t\tmean diff: check passed: True, value: 0.0\n"
            "[TS] root INFO: diff check passed\n");
  const auto str_key = diff_command({a, (dir.path() / "c.npy").string()});
  EXPECT_EQ(str_key.code, kExitFailed);
  EXPECT_NE(str_key.err.find("key '7' of " + a + " is missing in"), std::string::npos) << str_key.err;
}

TEST(DiffPlainArrays, TwoPlainArraysCompareAsOneEntryNamedAfterTheFiles) {
  test::TempDir dir;
  const std::string a = dir.write("a.npy", test::npy_float32({1, 2, 3}));
  const std::string b = dir.write("b.npy", test::npy_float32({1, 2, 3.5f}));
  const auto run = diff_command({a, b, "--method", "max"});
  EXPECT_EQ(run.code, kExitFailed) << run.err;
  EXPECT_EQ(normalise_timestamps(run.out),
            "[TS] root INFO: a vs b: \n[TS] root INFO: \tmax diff: check passed: False, value: 0.5\n"
            "[TS] root INFO: diff check failed\n");
  const std::string same_stem = dir.write("other/a.npy", test::npy_float32({1, 2, 3}));
  const auto same = diff_command({a, same_stem});
  EXPECT_EQ(same.code, kExitPassed) << same.err;
  EXPECT_EQ(normalise_timestamps(same.out).rfind("[TS] root INFO: a: \n", 0), 0u) << same.out;
  const auto help = diff_command({"--help"});
  EXPECT_NE(help.out.find("Two plain .npy arrays"), std::string::npos) << help.out;
}

// ---- numeric building blocks ---------------------------------------------------------

TEST(DiffRepr, PythonFloatRepr) {
  EXPECT_EQ(python_float_repr(0.0), "0.0");
  EXPECT_EQ(python_float_repr(-0.0), "-0.0");
  EXPECT_EQ(python_float_repr(2.0), "2.0");
  EXPECT_EQ(python_float_repr(0.0001), "0.0001");
  EXPECT_EQ(python_float_repr(1e-5), "1e-05");
  EXPECT_EQ(python_float_repr(1e16), "1e+16");
  EXPECT_EQ(python_float_repr(1e15), "1000000000000000.0");
  EXPECT_EQ(python_float_repr(static_cast<double>(1e-7f)), "1.0000000116860974e-07");
  EXPECT_EQ(python_float_repr(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(python_float_repr(-1.5e300), "-1.5e+300");
  EXPECT_EQ(python_float_repr(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(python_float_repr(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(python_int_repr(-128), "-128");
  EXPECT_EQ(python_int_repr(static_cast<__int128>(UINT64_MAX) * 2), "36893488147419103230");
}

Array array_of(Dtype dtype, std::vector<std::size_t> shape, const void* bytes, std::size_t size) {
  return Array{dtype, std::move(shape), false,
               SharedBytes::own(std::string_view(static_cast<const char*>(bytes), size))};
}

TEST(DiffLeaf, StreamedFastPathAgreesWithStridedPathsOverManyBlocks) {
  // About a million elements: 129 reduction blocks, enough for several threads.
  const std::size_t rows = 1024, cols = 1031;
  std::mt19937 random(7);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> a(rows * cols), b(rows * cols), a_transposed(rows * cols);
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = uniform(random);
    b[i] = a[i] + uniform(random) * 1e-3f;
  }
  float expected_max = 0;
  double expected_mean = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    expected_max = std::max(expected_max, std::fabs(a[i] - b[i]));
    expected_mean += std::fabs(a[i] - b[i]) / static_cast<double>(a.size());
  }
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) a_transposed[c * rows + r] = a[r * cols + c];
  }
  std::vector<std::uint32_t> b_big_endian(b.size());
  std::memcpy(b_big_endian.data(), b.data(), b.size() * 4);
  for (auto& word : b_big_endian) word = __builtin_bswap32(word);
  const Dtype f4{DtypeKind::kFloat, 4, ByteOrder::kLittle}, f4_big{DtypeKind::kFloat, 4, ByteOrder::kBig};
  const std::size_t bytes = a.size() * 4;

  const auto fast =
      diff_arrays(array_of(f4, {rows, cols}, a.data(), bytes), array_of(f4, {rows, cols}, b.data(), bytes), {});
  const auto swapped = diff_arrays(array_of(f4, {rows, cols}, a.data(), bytes),
                                   array_of(f4_big, {rows, cols}, b_big_endian.data(), bytes), {});
  const auto transposed = diff_arrays(array_of(f4, {cols, rows}, a_transposed.data(), bytes),
                                      array_of(f4, {rows, cols}, b.data(), bytes), {});
  ASSERT_TRUE(fast && swapped && transposed);
  EXPECT_TRUE(transposed->transposed_first);
  EXPECT_EQ(fast->stats.max.real, expected_max);
  EXPECT_NEAR(fast->stats.mean.real, expected_mean, expected_mean * 1e-5);
  for (const auto* other : {&*swapped, &*transposed}) {
    EXPECT_EQ(other->stats.min.text(), fast->stats.min.text());
    EXPECT_EQ(other->stats.max.text(), fast->stats.max.text());
    EXPECT_EQ(other->stats.mean.text(), fast->stats.mean.text());
  }
  b[rows * cols - 3] = NAN;  // in the last block, on whichever thread takes it
  const auto with_nan =
      diff_arrays(array_of(f4, {rows, cols}, a.data(), bytes), array_of(f4, {rows, cols}, b.data(), bytes), {});
  ASSERT_TRUE(with_nan);
  EXPECT_TRUE(with_nan->stats.min.is_nan() && with_nan->stats.max.is_nan() && with_nan->stats.mean.is_nan());
}

// `values` (C order, of `shape`) as an array of `dtype` (float16/32/64) stored in C order,
// or in Fortran order, or with its first two axes swapped (read back through [1, 0, 2]).
enum class Storage { kC, kFortran, kFirstAxesSwapped };
Array stored_as(Dtype dtype, const std::vector<double>& values, const std::vector<std::size_t>& shape,
                Storage storage) {
  const std::size_t d0 = shape[0], d1 = shape[1], d2 = shape[2];
  std::vector<double> memory(values.size());
  for (std::size_t i = 0; i < d0; ++i)
    for (std::size_t j = 0; j < d1; ++j)
      for (std::size_t k = 0; k < d2; ++k) {
        const std::size_t c = (i * d1 + j) * d2 + k;
        const std::size_t at = storage == Storage::kC         ? c
                               : storage == Storage::kFortran ? (k * d1 + j) * d0 + i
                                                              : (j * d0 + i) * d2 + k;
        memory[at] = values[c];
      }
  const std::vector<std::size_t> stored_shape =
      storage == Storage::kFirstAxesSwapped ? std::vector<std::size_t>{d1, d0, d2} : shape;
  return Array{dtype, stored_shape, storage == Storage::kFortran,
               SharedBytes::own(test::float_bytes(dtype.item_size, memory))};
}

// The same values in C order, in Fortran order and through a non-contiguous view (axes
// swapped in storage, read back through a layout permutation), float16/32/64, over three
// of numpy's 8192-element blocks: the default mean sums the diff in C order and prints the
// same digits for all of them; numpy's memory order (--compat) changes the Fortran pair's.
TEST(DiffLeaf, TheMeanOfTheSameValuesIsTheSameInEveryLayout) {
  const std::vector<std::size_t> shape{6, 50, 80};
  std::mt19937 random(29);
  std::uniform_real_distribution<double> uniform(0.5, 1.5);
  std::vector<double> a(6 * 50 * 80), b(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = uniform(random);
    b[i] = uniform(random) * 1e-3;
  }
  bool memory_order_differs = false;
  for (const std::size_t item_size : {2, 4, 8}) {
    const Dtype dtype{DtypeKind::kFloat, item_size, ByteOrder::kLittle};
    SCOPED_TRACE(dtype.name());
    const auto diff = [&](Storage storage, bool numpy_memory_order) {
      LeafDiffOptions options{true, {}, numpy_memory_order};
      if (storage == Storage::kFirstAxesSwapped) options.second_axes = {1, 0, 2};
      const Storage a_storage = storage == Storage::kFirstAxesSwapped ? Storage::kC : storage;
      const auto result =
          diff_arrays(stored_as(dtype, a, shape, a_storage), stored_as(dtype, b, shape, storage), options);
      EXPECT_TRUE(result) << result.error();
      return result ? result->stats.mean.text() : "";
    };
    const std::string c_order = diff(Storage::kC, false);
    EXPECT_EQ(diff(Storage::kFortran, false), c_order);
    EXPECT_EQ(diff(Storage::kFirstAxesSwapped, false), c_order);
    EXPECT_EQ(diff(Storage::kC, true), c_order);
    EXPECT_EQ(diff(Storage::kFirstAxesSwapped, true), c_order);  // numpy's diff is C-ordered here too
    memory_order_differs = memory_order_differs || diff(Storage::kFortran, true) != c_order;
  }
  EXPECT_TRUE(memory_order_differs);  // the layouts do change numpy's digits: the test has teeth
}

// |a - b| of complex64 is the float32 nearest the exact modulus. numpy 1.24's AVX-512 abs
// is less precise (issue 18: ...2023258209 against ...2321281433); tipc-run gives what numpy
// gives with its AVX-512 paths disabled. These components are ones where plain float32
// arithmetic, sqrtf(re * re + im * im), is one ulp off too.
TEST(DiffLeaf, Complex64AbsIsTheCorrectlyRoundedModulus) {
  const std::uint32_t re_bits = 1062462545, im_bits = 1052669064;
  test::TempDir dir;
  dir.write("make.py", fmt::format(R"(import numpy as np
np.save("z.npy", np.array([{}, {}], dtype=np.uint32).view(np.float32).view(np.complex64))
np.save("zero.npy", np.zeros(1, dtype=np.complex64))
)",
                                   re_bits, im_bits));
  ASSERT_EQ(std::system(("cd " + test::shell_quote(dir.path().string()) + " && /usr/bin/python3 make.py").c_str()), 0);
  const float re = std::bit_cast<float>(re_bits), im = std::bit_cast<float>(im_bits);
  // The squares of float32 values are exact in long double; its sqrt is rounded once more to float32.
  const auto exact =
      static_cast<float>(std::sqrt(static_cast<long double>(re) * re + static_cast<long double>(im) * im));
  const float naive = std::sqrt(re * re + im * im);
  ASSERT_NE(exact, naive);
  const auto run = diff_command(
      {(dir.path() / "z.npy").string(), (dir.path() / "zero.npy").string(), "--method", "max", "--threshold", "1"});
  EXPECT_EQ(run.code, kExitPassed) << run.err;
  EXPECT_NE(run.out.find("max diff: check passed: True, value: " + python_float_repr(exact) + "\n"), std::string::npos)
      << run.out;
}

TEST(DiffLeaf, SignedWrapAroundKeepsMinusOneTwentyEight) {
  const std::int8_t a[] = {127}, b[] = {-1};
  const Dtype i1{DtypeKind::kInt, 1, ByteOrder::kNotApplicable};
  const auto wrapped = diff_arrays(array_of(i1, {1}, a, 1), array_of(i1, {1}, b, 1), {false, {}});
  ASSERT_TRUE(wrapped.has_value());
  EXPECT_EQ(wrapped->stats.max.text(), "-128");
  EXPECT_TRUE(wrapped->wrapped);
  const auto exact = diff_arrays(array_of(i1, {1}, a, 1), array_of(i1, {1}, b, 1), {true, {}});
  EXPECT_EQ(exact->stats.max.text(), "128");
}

TEST(DiffLeaf, ZeroDimFloat64AgainstFloat32ArrayComputesInFloat32) {
  const double loss64 = 0.1;
  const float loss32[] = {0.1f};
  const auto diff = diff_arrays(array_of(Dtype{DtypeKind::kFloat, 8, ByteOrder::kLittle}, {}, &loss64, 8),
                                array_of(Dtype{DtypeKind::kFloat, 4, ByteOrder::kLittle}, {1}, loss32, 4), {});
  ASSERT_TRUE(diff.has_value());
  EXPECT_EQ(diff->diff_dtype.item_size, 4u);  // value-based casting: numpy 1.x gives f4
  EXPECT_EQ(diff->stats.mean.text(), "0.0");
}

TEST(DiffReduce, PairwiseSumStaysWithinUlpsWhereSequentialSummationDrifts) {
  std::vector<float> values(300);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = 1.0f / static_cast<float>(i + 1);
  // Sequential float summation differs from numpy's order in the last bits; pairwise must
  // stay within a couple of ulps of the exact double sum.
  double exact = 0;
  for (const float v : values) exact += v;
  EXPECT_NEAR(numpy_pairwise_sum(std::span<const float>(values)), exact, 2e-6);
}

TEST(DiffReduce, BlockSummaryFindsExtremesAndNaNInVectorLanesAndTail) {
  // Nine values: two 4-lane vectors and a scalar tail; the extremes sit in different parts.
  const std::vector<float> values{3.0f, 1.0f, 7.5f, 2.0f, 0.25f, 4.0f, 5.0f, 6.0f, 0.5f};
  const auto summary = summarize_diff_block(std::span<const float>(values));
  EXPECT_EQ(summary.min, 0.25f);
  EXPECT_EQ(summary.max, 7.5f);
  EXPECT_EQ(summary.sum, 29.25f);
  EXPECT_FALSE(summary.has_nan);
  for (const std::size_t at : {0u, 5u, 8u}) {
    std::vector<float> with_nan = values;
    with_nan[at] = NAN;
    EXPECT_TRUE(summarize_diff_block(std::span<const float>(with_nan)).has_nan) << "NaN at " << at;
  }
  const std::vector<double> tail_minimum{2.0, 3.0, 4.0, 1.0, 0.125};
  EXPECT_EQ(summarize_diff_block(std::span<const double>(tail_minimum)).min, 0.125);
}

TEST(DiffReduce, StreamTotalsAddBlockSumsInOrderAndPropagateNaN) {
  // 2^24 + 1 + 1 in float: block order matters (1 + 1 first would give 2^24 + 2).
  StreamTotals<float> totals;
  totals.add({16777216.0f, 16777216.0f, 16777216.0f, false});
  totals.add({1.0f, 1.0f, 1.0f, false});
  totals.add({1.0f, 1.0f, 1.0f, false});
  EXPECT_EQ(totals.sum(), 16777216.0f);
  EXPECT_EQ(totals.min(), 1.0f);
  EXPECT_EQ(totals.max(), 16777216.0f);
  totals.add({0.0f, 0.0f, 0.0f, true});
  EXPECT_TRUE(std::isnan(totals.min()));
  EXPECT_TRUE(std::isnan(totals.max()));
}

TEST(DiffReduce, ParallelBlocksGiveTheSequentialBlockOrder) {
  // Enough blocks for several threads; each summary records where its block starts.
  const std::size_t total = 300 * kNumpyReduceBlock + 17;
  const auto blocks = summarize_blocks<std::pair<std::size_t, std::size_t>>(total, [] {
    return [](std::size_t start, std::size_t count) { return std::pair{start, count}; };
  });
  ASSERT_EQ(blocks.size(), 301u);
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    EXPECT_EQ(blocks[i].first, i * kNumpyReduceBlock);
    EXPECT_EQ(blocks[i].second, i + 1 < blocks.size() ? kNumpyReduceBlock : 17u);
  }
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::align
