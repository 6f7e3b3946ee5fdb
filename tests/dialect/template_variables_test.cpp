#include "dialect/template_variables.h"

#include <gtest/gtest.h>

#include <fstream>

#include "dialect/dialect.h"
#include "support/paths.h"
#include "support/temp_dir.h"

namespace tipc::dialect {
namespace {

TEST(TemplateVariables, ThePlannersNamesAndLineVariablesAreKnown) {
  for (const char* name : {"trainer", "LOG", "stage_log", "word", "wi_weights", "key_35", "value_7", "set_12"}) {
    EXPECT_TRUE(is_planner_variable(name)) << name;
  }
  for (const char* name : {"trainr", "key_", "key_x", "log", ""}) EXPECT_FALSE(is_planner_variable(name)) << name;
}

TEST(TemplateVariables, NamesAreReadInOrderAndAnUnclosedBraceIsNoList) {
  EXPECT_EQ(template_variable_names("{py} {a}x{b}"), (std::vector<std::string>{"py", "a", "b"}));
  EXPECT_EQ(template_variable_names("no slots"), std::vector<std::string>{});
  EXPECT_EQ(template_variable_names("{py} {oops"), std::nullopt);
}

// The shipped paddleocr dialect with one line replaced.
std::string ocr_dialect_with(const std::string& from, const std::string& to) {
  std::ifstream in(test::dialect_dir() + "/paddleocr.yaml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

std::string load_error(test::TempDir& dir, const std::string& text) {
  const auto loaded = load_dialect_file(dir.write("paddleocr.yaml", text));
  return loaded ? "loaded" : loaded.error().str();
}

TEST(TemplateVariables, EveryShippedDialectLoads) {
  for (const char* name : {"paddleocr", "paddleclas", "paddledetection", "paddleseg", "paddlevideo", "paddlegan",
                           "template"}) {
    const auto loaded = load_dialect_file(test::dialect_dir() + "/" + name + ".yaml");
    EXPECT_TRUE(loaded) << name << ": " << loaded.error().str();
  }
}

TEST(TemplateVariables, AMisspeltVariableIsRefusedAtLoadWithItsLineAndKey) {
  test::TempDir dir;
  const std::string text = ocr_dialect_with("{export_script} {exp_w}", "{export_script} {exp_weights}");
  const std::string error = load_error(dir, text);
  const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + text.find("{exp_weights}"), '\n'));
  EXPECT_NE(error.find("paddleocr.yaml:" + std::to_string(line) + ": key 'command': unknown variable {exp_weights}"),
            std::string::npos)
      << error;
}

TEST(TemplateVariables, SlotsOfTheDialectAreVariablesAndTheirByIsChecked) {
  test::TempDir dir;
  EXPECT_EQ(load_error(dir, ocr_dialect_with("{amp}", "{amp}{amp}")), "loaded");
  EXPECT_NE(load_error(dir, ocr_dialect_with("amp: {by: autocast", "amp: {by: autocats")).find("unknown variable {autocats}"),
            std::string::npos);
  const std::string unclosed = load_error(dir, ocr_dialect_with("{mode}\"", "{mode\""));
  EXPECT_NE(unclosed.find("paddleocr.yaml:22: key 'log_dir': a '{' that is not closed"), std::string::npos) << unclosed;
}

TEST(TemplateVariables, AnInferenceLoopMustBeOneThePlannerIterates) {
  test::TempDir dir;
  const std::string error = load_error(dir, ocr_dialect_with("loops: [trt, precision", "loops: [tensorrt, precision"));
  EXPECT_NE(error.find("key 'loops': unknown loop 'tensorrt'"), std::string::npos) << error;
}

}  // namespace
}  // namespace tipc::dialect
