#pragma once
// How a runner takes its arguments. Every runner takes the config first. Most take the MODE
// second (`MODE=$2`), but some chains' runners give their second argument another meaning
// and fix the mode themselves: PaddleDetection's C++ runner reads `$2` as the inference
// library's download link (`Paddle_Infer_Link=$2`), PaddleOCR's as the GPU id (`GPUID=$2`).
// Passing the MODE there is what no user of that runner does: the library would be
// "downloaded" from `cpp_infer`, the stages would see CUDA_VISIBLE_DEVICES=cpp_infer.
#include <string>

namespace tipc::trace {

// Whether the runner's text reads its second argument as the MODE: false when, outside its
// functions (whose `$2` is their own), it assigns `$2` to a variable other than MODE and never
// to MODE; true otherwise (a runner that ignores `$2` loses nothing by getting it).
bool takes_mode_argument(const std::string& runner_text);

}  // namespace tipc::trace
