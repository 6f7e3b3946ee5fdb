#pragma once
// A PaddleOCR-layout config whose python: is tipc-fake-stage, for tests that run tipc-run
// for real: a train (its command given), an eval that needs the file eval-ok in the
// repository, an export and an inference matrix of 2 CPU and 2 GPU stages.
#include <string>

#include "support/paths.h"

namespace tipc::test {

// The directory that makes dialect detection pick paddleocr, the layout of fake_config():
// a scratch repository without a marker is an error (no dialect is guessed).
inline constexpr const char* kPaddleOcrMarker = "ppocr/__init__.py";

inline std::string fake_config(const std::string& train = "train.py --record rec.txt --print train-done",
                               const std::string& gpu_list = "-1") {
  return "===========================train_params===========================\n"
         "model_name:fake\n"
         "python:" +
         fake_stage_binary() +
         "\n"
         "gpu_list:" +
         gpu_list +
         "\n"
         "--use-gpu:False\n--amp:null\n"
         "--epochs:lite_train_lite_infer=1|whole_train_whole_infer=1\n--save-dir:./output/\n"
         "--batch-size:lite_train_lite_infer=2|whole_train_whole_infer=2\n--pretrained:null\n"
         "train_model_name:latest\ntrain_infer_img_dir:./data\nnull:null\n##\n"
         "trainer:norm_train\nnorm_train:" +
         train +
         "\n"
         "pact_train:null\nfpgm_train:null\ndistill_train:null\nnull:null\nnull:null\n##\n"
         "===========================eval_params===========================\n"
         "eval:eval.py --record rec.txt --fail-if-missing eval-ok\nnull:null\n##\n"
         "===========================infer_params===========================\n"
         "--output-dir:./output/\n--checkpoint:\nnorm_export:export.py --record rec.txt\nquant_export:null\n"
         "fpgm_export:null\ndistill_export:null\nexport1:null\nexport2:null\ninference_dir:null\ninfer_model:./m\n"
         "infer_export:null\ninfer_quant:False\ninference:infer.py --record rec.txt\n"
         "--use-gpu:True|False\n--enable-mkldnn:False\n--cpu-threads:1\n--batch-size:1|2\n--use-tensorrt:False\n"
         "--precision:fp32\n--model-dir:\n--image-dir:./data\nnull:null\n--benchmark:False\nnull:null\n";
}

}  // namespace tipc::test
