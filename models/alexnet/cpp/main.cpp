// alexnet_infer: the demo AlexNet's C++ inference, the `inference:` line of
// test_tipc/configs/alexnet_cpp.txt. Loads the TorchScript model that export_model.py
// writes (<model_dir>/model.pt, class names in <model_dir>/classes.txt) with libtorch, runs
// it on the CPU over the binary PPM images under --image_dir in batches, and prints per image
//
//   infer result (<class>): <path>\t[<class id>, <score>]
//
// as models/alexnet/infer.py does (the TIPC ground-truth format of test_tipc/results/: the
// softmax score of the top class, six decimals). --benchmark=True ends with AutoLog-style
// lines (preprocess_time(ms): ..., inference_time(ms): ..., postprocess_time(ms): ...).
//
// Flags have the form --name=value (the runner's func_set_params writes them so):
//   --model_dir --image_dir --cpu_threads --batch_size --precision --use_gpu --enable_mkldnn
//   --use_tensorrt --benchmark
// Debian's libtorch has no CUDA, so --use_gpu=True, fp16, TensorRT and MKL-DNN are errors,
// never a silent fall-back. Exit 0 on success, 1 when inference fails, 2 on bad flags.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <ATen/Parallel.h>
#include <torch/script.h>

namespace {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct Options {
  std::string model_dir;
  std::string image_dir;
  int cpu_threads = 1;
  int batch_size = 1;
  std::string precision = "fp32";
  bool benchmark = false;
};

// A bad flag: main prints it and exits 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

bool parse_bool(const std::string& name, const std::string& value) {
  if (value == "True" || value == "true" || value == "1") return true;
  if (value == "False" || value == "false" || value == "0") return false;
  throw UsageError("--" + name + "=" + value + ": expected True or False");
}

int parse_positive(const std::string& name, const std::string& value) {
  std::size_t used = 0;
  int number = 0;
  try {
    number = std::stoi(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size() || number < 1) throw UsageError("--" + name + "=" + value + ": expected a positive integer");
  return number;
}

// The flags the config may set whose only supported value is "off" on this build.
void require_off(const std::string& name, const std::string& value, const char* why) {
  if (parse_bool(name, value)) throw UsageError("--" + name + "=" + value + ": " + why);
}

void apply_flag(Options& options, const std::string& name, const std::string& value) {
  if (name == "model_dir")
    options.model_dir = value;
  else if (name == "image_dir")
    options.image_dir = value;
  else if (name == "cpu_threads")
    options.cpu_threads = parse_positive(name, value);
  else if (name == "batch_size")
    options.batch_size = parse_positive(name, value);
  else if (name == "benchmark")
    options.benchmark = parse_bool(name, value);
  else if (name == "use_gpu")
    require_off(name, value, "this program runs on the CPU (Debian's libtorch has no CUDA)");
  else if (name == "use_tensorrt")
    require_off(name, value, "TensorRT is not supported by the demo model");
  else if (name == "enable_mkldnn")
    require_off(name, value, "the demo's C++ program runs libtorch's default CPU kernels");
  else if (name == "precision") {
    if (value != "fp32") throw UsageError("--precision=" + value + ": the CPU runs fp32 only");
    options.precision = value;
  } else {
    throw UsageError("unknown flag --" + name);
  }
}

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto equals = arg.find('=');
    if (arg.rfind("--", 0) != 0 || equals == std::string::npos) {
      throw UsageError("'" + arg + "': flags have the form --name=value");
    }
    apply_flag(options, arg.substr(2, equals - 2), arg.substr(equals + 1));
  }
  if (options.model_dir.empty()) throw UsageError("--model_dir is required");
  if (options.image_dir.empty()) throw UsageError("--image_dir is required");
  return options;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::string> read_classes(const fs::path& file) {
  std::istringstream in(read_file(file));
  std::vector<std::string> classes;
  for (std::string name; in >> name;) classes.push_back(name);
  if (classes.empty()) throw std::runtime_error(file.string() + ": no class names");
  return classes;
}

// The .ppm files under `dir`, sorted by path as infer.py sorts os.walk's.
std::vector<std::string> image_paths(const std::string& dir) {
  if (!fs::is_directory(dir)) throw std::runtime_error("no image directory " + dir);
  std::vector<std::string> paths;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".ppm") paths.push_back(entry.path().string());
  }
  if (paths.empty()) throw std::runtime_error("no .ppm images in " + dir);
  std::sort(paths.begin(), paths.end());
  return paths;
}

bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// A binary PPM (P6) as a 3 x H x W float tensor in [0, 1], decoded as common.decode_ppm does:
// "P6", width, height and maxval separated by whitespace, then one whitespace byte, then
// the pixels (which may start with whitespace bytes themselves).
torch::Tensor read_ppm(const std::string& path) {
  const std::string data = read_file(path);
  std::vector<std::string> fields;
  std::size_t pos = 0;
  while (fields.size() < 4) {
    while (pos < data.size() && is_space(data[pos])) ++pos;
    const std::size_t start = pos;
    while (pos < data.size() && !is_space(data[pos])) ++pos;
    fields.push_back(data.substr(start, pos - start));
  }
  if (fields[0] != "P6") throw std::runtime_error(path + ": not a binary PPM (P6) image");
  const int width = std::stoi(fields[1]), height = std::stoi(fields[2]), maxval = std::stoi(fields[3]);
  const std::size_t count = static_cast<std::size_t>(width) * height * 3;
  if (maxval < 1 || maxval > 255 || data.size() < pos + 1 + count) {
    throw std::runtime_error(path + ": truncated or not 8 bits per channel");
  }
  const auto* pixels = reinterpret_cast<const unsigned char*>(data.data() + pos + 1);
  torch::Tensor image = torch::empty({3, height, width}, torch::kFloat32);
  float* out = image.data_ptr<float>();
  const auto scale = static_cast<float>(maxval);
  for (int c = 0; c < 3; ++c) {
    for (std::size_t i = 0; i < static_cast<std::size_t>(width) * height; ++i) {
      *out++ = static_cast<float>(pixels[i * 3 + c]) / scale;
    }
  }
  return image;
}

struct Timings {
  std::vector<double> preprocess, inference, postprocess;  // seconds per batch
};

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// infer.py's postprocessing in float: softmax, the top class and its score.
void print_results(const torch::Tensor& logits, const std::vector<std::string>& paths, std::size_t first,
                   const std::vector<std::string>& classes) {
  const torch::Tensor rows = logits.contiguous();
  const auto width = static_cast<std::size_t>(rows.size(1));
  for (std::int64_t r = 0; r < rows.size(0); ++r) {
    const float* row = rows[r].data_ptr<float>();
    const float top = *std::max_element(row, row + width);
    std::vector<float> e(width);
    float sum = 0.0F;
    for (std::size_t k = 0; k < width; ++k) sum += e[k] = std::exp(row[k] - top);
    const auto best = static_cast<std::size_t>(std::max_element(e.begin(), e.end()) - e.begin());
    if (best >= classes.size()) throw std::runtime_error("the model has more classes than classes.txt");
    std::printf("infer result (%s): %s\t[%zu, %.6f]\n", classes[best].c_str(), paths[first + r].c_str(), best,
                static_cast<double>(e[best] / sum));
  }
}

double mean_ms(const std::vector<double>& seconds) {
  double sum = 0;
  for (double s : seconds) sum += s;
  return std::round(1000.0 * sum / std::max<std::size_t>(1, seconds.size()) * 1e4) / 1e4;
}

// AutoLog's summary, as infer.py prints it (tipc-run's reports read these fields).
void print_autolog(const Options& options, const Timings& timings, std::size_t images, double total_s) {
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y/%m/%d %H:%M:%S", std::localtime(&now));
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto info = [&](const std::string& message) { std::printf("[%s] root INFO: %s\n", stamp, message.c_str()); };
  info("----------------------- Conf info -----------------------");
  info(" runtime_device: cpu");
  info(" enable_tensorrt: False");
  info(" enable_mkldnn: False");
  info(" cpu_math_library_num_threads: " + std::to_string(options.cpu_threads));
  info("----------------------- Model info ----------------------");
  info(" model_name: alexnet");
  info(" precision: " + options.precision);
  info("----------------------- Data info -----------------------");
  info(" batch_size: " + std::to_string(options.batch_size));
  info(" input_shape: dynamic");
  info(" data_num: " + std::to_string(images));
  info("----------------------- Perf info -----------------------");
  char line[256];
  std::snprintf(line, sizeof line, " cpu_rss(MB): %.4f, gpu_rss(MB): None, gpu_util: None%%",
                static_cast<double>(usage.ru_maxrss) / 1024.0);
  info(line);
  std::snprintf(line, sizeof line, " total time spent(s): %.4f", total_s);
  info(line);
  std::snprintf(line, sizeof line, " preprocess_time(ms): %.4f, inference_time(ms): %.4f, postprocess_time(ms): %.4f",
                mean_ms(timings.preprocess), mean_ms(timings.inference), mean_ms(timings.postprocess));
  info(line);
}

void run(const Options& options) {
  at::set_num_threads(options.cpu_threads);
  const fs::path model_file = fs::path(options.model_dir) / "model.pt";
  if (!fs::is_regular_file(model_file)) throw std::runtime_error("no TorchScript model " + model_file.string());
  torch::jit::Module model = torch::jit::load(model_file.string(), torch::kCPU);
  model.eval();
  const auto classes = read_classes(fs::path(options.model_dir) / "classes.txt");
  const auto paths = image_paths(options.image_dir);
  const torch::NoGradGuard no_grad;
  Timings timings;
  const auto start = Clock::now();
  for (std::size_t first = 0; first < paths.size(); first += options.batch_size) {
    const std::size_t end = std::min(paths.size(), first + options.batch_size);
    const auto t0 = Clock::now();
    std::vector<torch::Tensor> images;
    for (std::size_t i = first; i < end; ++i) images.push_back(read_ppm(paths[i]));
    const torch::Tensor batch = torch::stack(images);
    const auto t1 = Clock::now();
    const torch::Tensor logits = model.forward({batch}).toTensor().to(torch::kFloat32);
    const auto t2 = Clock::now();
    print_results(logits, paths, first, classes);
    timings.preprocess.push_back(std::chrono::duration<double>(t1 - t0).count());
    timings.inference.push_back(std::chrono::duration<double>(t2 - t1).count());
    timings.postprocess.push_back(seconds_since(t2));
  }
  std::fflush(stdout);
  if (options.benchmark) print_autolog(options, timings, paths.size(), seconds_since(start));
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  try {
    options = parse_options(argc, argv);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "alexnet_infer: %s\n", e.what());
    return 2;
  }
  try {
    run(options);
  } catch (const c10::Error& e) {  // libtorch's (a model that does not load): without its backtrace
    std::fprintf(stderr, "alexnet_infer: error: %s\n", e.what_without_backtrace());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "alexnet_infer: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
