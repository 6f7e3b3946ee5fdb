#include "config/config_text.h"

#include <gtest/gtest.h>

#include "config/train_infer_config.h"
#include "support/temp_dir.h"

namespace tipc::config {
namespace {
namespace TIPC_TEST_FILE {

Result<ConfigText> parse(const std::string& bytes) { return parse_config_text(bytes, "c.txt"); }

TEST(ConfigText, BlankLinesDoNotCountButKeepTheirPhysicalNumbers) {
  const auto text = parse("a:1\n\n\nb:2\n   \nc:3");
  ASSERT_TRUE(text);
  ASSERT_EQ(text->lines.size(), 4u);  // a whitespace-only line is not empty (docs/config-format.md#logical-lines)
  EXPECT_EQ(text->lines[1].text, "b:2");
  EXPECT_EQ(text->lines[1].physical_line, 4);
  EXPECT_EQ(text->lines[2].text, "");
  EXPECT_EQ(text->lines[2].trailing, "   ");
  EXPECT_EQ(text->lines[3].physical_line, 6);
}

TEST(ConfigText, CrlfIsAcceptedAndStrippedByDefault) {
  const auto text = parse("a:1\r\nb:2\r\n");
  ASSERT_TRUE(text);
  EXPECT_EQ(text->lines[0].text, "a:1");
  EXPECT_EQ(text->lines[1].text, "b:2");
}

// Found by the config fuzz target (seed tests/fuzz/corpus/config/stray-carriage-returns).
TEST(ConfigText, StrayCarriageReturnsBeforeTheLineEndAreCutLikeBlanks) {
  const auto text = parse("a:1 \r\r\n\r\r");
  ASSERT_TRUE(text);
  ASSERT_EQ(text->lines.size(), 2u);
  EXPECT_EQ(text->lines[0].text, "a:1");
  EXPECT_EQ(text->lines[0].read_as(LineView::kVerbatim), "a:1 \r\r") << "compat reads the bytes as they are";
  EXPECT_EQ(text->lines[1].text, "");
  EXPECT_EQ(text->lines[1].trailing, "\r\r");
}

TEST(ConfigText, CompatReadsTheCarriageReturnAndTrailingBlanksLikeTheReference) {
  const auto text = parse("a:1 \r\nb:2\t\r\n");
  ASSERT_TRUE(text);
  EXPECT_EQ(text->lines[0].read_as(LineView::kVerbatim), "a:1 \r");
  EXPECT_EQ(text->lines[0].read_as(LineView::kNormalised), "a:1");
  EXPECT_EQ(text->lines[1].trailing, "\t\r");
  EXPECT_EQ(text->normalised.crlf_lines, 2);
}

// The reference keeps the CR, so a CR LF empty line is a line to it: compat counts it.
TEST(ConfigText, AnEmptyCrlfLineCountsInCompatOnly) {
  const auto text = parse("a:1\r\n\r\nb:2\r\n");
  ASSERT_TRUE(text);
  EXPECT_EQ(split_config(*text, {}, LineView::kNormalised).size(), 2);
  const auto compat = split_config(*text, {}, LineView::kVerbatim);
  ASSERT_EQ(compat.size(), 3);
  EXPECT_EQ(compat.at(2).text, "\r");
  EXPECT_EQ(compat.at(3).physical_line, 3);
}

TEST(ConfigText, Utf8ByteOrderMarkIsSkipped) {
  const auto text = parse("\xEF\xBB\xBF===train_params===\nmodel_name:x\n");
  ASSERT_TRUE(text);
  EXPECT_EQ(text->lines[0].text, "===train_params===");
  EXPECT_EQ(text->header_line(), "===train_params===");
}

TEST(ConfigText, TheHeaderIsTheFirstLineWithText) {
  EXPECT_EQ(parse("\n  \t\n\r\n===serving_params===  \r\nx:1\n")->header_line(), "===serving_params===");
}

// Default mode warns about CRLF (the reference would keep the CRs); nothing else changes a plan.
TEST(ConfigText, OnlyCrlfLineEndsAreWorthAWarning) {
  EXPECT_TRUE(normalisation_warnings(*parse("\xEF\xBB\xBF"
                                            "a:1  \nb:2\t\n"))
                  .empty());
  const auto warnings = normalisation_warnings(*parse("a:1\r\nb:2\n"));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].str(),
            "c.txt: 1 of 2 lines end in CR LF: tipc-run removes the CR, the reference runner keeps "
            "it at the end of every key and value (reference defect D16); save the file with LF line ends");
}

TEST(ConfigText, EmptyFileIsAClearError) {
  for (const std::string bytes : {"", "\n\n\n", "\xEF\xBB\xBF"}) {
    const auto text = parse(bytes);
    ASSERT_FALSE(text);
    EXPECT_NE(text.error().str().find("c.txt: the file is empty"), std::string::npos) << text.error().str();
  }
}

TEST(ConfigText, BinaryDataIsRejectedWithItsLine) {
  const auto text =
      parse(std::string("a:1\nb:\x7f"
                        "ELF\0\x01\x02",
                        12));
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().str(), "c.txt:2: binary data (NUL byte); not a TIPC config");
}

TEST(ConfigText, InvalidUtf8IsRejected) {
  const auto text = parse("a:1\nb:\xff\xfe\n");
  ASSERT_FALSE(text);
  EXPECT_NE(text.error().str().find("c.txt:2: invalid UTF-8"), std::string::npos);
}

TEST(ConfigText, ValidMultibyteUtf8IsAccepted) {
  const auto text = parse("model_name:模型\n");
  ASSERT_TRUE(text);
  EXPECT_EQ(text->lines[0].text, "model_name:模型");
}

TEST(ConfigText, TenMegabyteLineIsRejectedNotSlurped) {
  const std::string huge = "a:1\n" + std::string(10u << 20, 'x') + "\n";
  TextLimits limits;
  limits.max_file_bytes = 64u << 20;
  const auto text = parse_config_text(huge, "c.txt", limits);
  ASSERT_FALSE(text);
  EXPECT_NE(text.error().str().find("c.txt:2: line is 10485760 bytes long"), std::string::npos);
}

TEST(ConfigText, OversizedFileIsRejectedBeforeParsing) {
  test::TempDir dir;
  const auto path = dir.write("big.txt", std::string(9u << 20, 'a'));
  const auto text = read_config_text(path);
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().str(), path + ": file is larger than 8388608 bytes; not a TIPC config");
}

// The file is read in 64 KiB pieces: one of several pieces, and one exactly at the size
// limit, are read whole.
TEST(ConfigText, AFileOfSeveralPiecesIsReadWhole) {
  test::TempDir dir;
  std::string body;
  for (int i = 0; i < 5000; ++i) body += "key_" + std::to_string(i) + ":" + std::string(40, 'v') + "\n";
  ASSERT_GT(body.size(), 3u * 65536);
  const auto text = read_config_text(dir.write("long.txt", body));
  ASSERT_TRUE(text) << text.error().str();
  ASSERT_EQ(text->lines.size(), 5000u);
  EXPECT_EQ(text->lines.back().text, "key_4999:" + std::string(40, 'v'));

  TextLimits limits;
  limits.max_file_bytes = body.size();
  EXPECT_TRUE(read_config_text(dir.write("at_limit.txt", body), limits));
  limits.max_file_bytes = body.size() - 1;
  EXPECT_FALSE(read_config_text(dir.write("over_limit.txt", body), limits));
}

TEST(ConfigText, MissingFileNamesThePathAndTheSystemsReason) {
  const auto text = read_config_text("/nonexistent/x.txt");
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().str(), "/nonexistent/x.txt: cannot open the config file: No such file or directory");
}

TEST(ConfigText, TruncatedLastLineIsKept) {
  const auto text = parse("a:1\nb:2");
  ASSERT_TRUE(text);
  ASSERT_EQ(text->lines.size(), 2u);
  EXPECT_EQ(text->lines[1].text, "b:2");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::config
