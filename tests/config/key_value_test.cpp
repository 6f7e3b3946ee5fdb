#include "config/key_value.h"

#include <gtest/gtest.h>

namespace tipc::config {
namespace {
namespace TIPC_TEST_FILE {

const SplitRules kOcr{ValueSplit::kSecondColon, false, true};
const SplitRules kDet{ValueSplit::kFirstColon, true, true};
const SplitRules kDefault{ValueSplit::kFirstColon, false, false};

struct Row {
  std::string line, key, ocr_value, det_value;
};

// The table of docs/config-format.md#splitting-a-line-into-key-and-value: the upstream helpers' results.
TEST(KeyValue, SplitsLikeTheReferenceHelpers) {
  const Row rows[] = {
      {"Global.use_gpu:True|True", "Global.use_gpu", "True|True", "True|True"},
      {"pretrained_model_url:https://a.b/c.pdparams", "pretrained_model_url", "https", "https://a.b/c.pdparams"},
      {"norm_train:tools/train.py -c x.yml -o   A=1  B=2 ", "norm_train", "tools/train.py -c x.yml -o   A=1  B=2 ",
       "tools/train.py -c x.yml -o   A=1  B=2 "},
      {"-o Global.epochs:2", "-o Global.epochs", "2", "2"},
      {"Global.checkpoints:", "Global.checkpoints", "", ""},
      {"k: ", "k", " ", " "},
      {"##", "##", "", "##"},
      {":lead", "", "lead", "lead"},
      {"a::b", "a", "", ":b"},
      {"a:b:", "a", "b", "b:"},
      {"x:-n", "x", "", ""},
  };
  for (const auto& row : rows) {
    const auto ocr = split_key_value(row.line, kOcr);
    const auto det = split_key_value(row.line, kDet);
    EXPECT_EQ(ocr.key, row.key) << row.line;
    EXPECT_EQ(ocr.value, row.ocr_value) << row.line;
    EXPECT_EQ(det.value, row.det_value) << row.line;
  }
}

TEST(KeyValue, DefaultModeKeepsUrlsAndEchoWords) {
  EXPECT_EQ(split_key_value("w:https://x.y/z:80/m", kDefault).value, "https://x.y/z:80/m");
  EXPECT_EQ(split_key_value("x:-n", kDefault).value, "-n");
  EXPECT_EQ(split_key_value("##", kDefault).value, "");
}

TEST(KeyValue, EchoOptionWords) {
  for (const char* w : {"-n", "-e", "-E", "-ne", "-nEe"}) EXPECT_TRUE(is_echo_option_word(w)) << w;
  for (const char* w : {"-", "-x", "n", "--n", "-n1", ""}) EXPECT_FALSE(is_echo_option_word(w)) << w;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::config
