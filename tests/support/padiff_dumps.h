#pragma once
// Small PaDiff dumps written from C++ for the padiff tests: .npy tensors, report.json layer
// nodes and params.json parameter nodes, laid out as PaDiff writes them.
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/temp_dir.h"

namespace tipc::test {

using OrderedJson = nlohmann::ordered_json;

template <typename T>
const char* npy_descr() {
  return sizeof(T) == 4 ? "<f4" : "<f8";
}

// The bytes of a C-order .npy holding `values` (float or double) with `shape`; an empty
// shape means 1-D of all the values.
template <typename T>
std::string npy_bytes(const std::vector<T>& values, std::vector<std::size_t> shape = {}, bool scalar = false) {
  if (shape.empty() && !scalar) shape = {values.size()};
  std::string dims;
  for (const std::size_t d : shape) dims += std::to_string(d) + (shape.size() == 1 ? "," : ", ");
  std::string header =
      std::string("{'descr': '") + npy_descr<T>() + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string out = std::string("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  std::string payload(values.size() * sizeof(T), '\0');
  std::memcpy(payload.data(), values.data(), payload.size());
  return out + header + payload;
}

// One rank directory of a dump: tensors are written under tensors/ with PaDiff's names.
class DumpWriter {
 public:
  DumpWriter(const TempDir& temp, const std::string& rank_dir) : temp_(temp), rank_dir_(rank_dir) {}

  std::filesystem::path dir() const { return temp_.path() / rank_dir_; }

  // Writes tensors/tensor_<i>.npy and returns its path as the writer names it in the JSON.
  template <typename T = float>
  std::string tensor(const std::vector<T>& values, std::vector<std::size_t> shape = {}) {
    const std::string name = "tensors/tensor_" + std::to_string(next_++) + ".npy";
    return temp_.write(rank_dir_ + "/" + name, npy_bytes(values, std::move(shape)));
  }

  // A report.json node (type net unless changed by the caller).
  static OrderedJson layer(const std::string& name, const std::string& route, const std::vector<std::string>& fwd,
                           const std::vector<std::string>& bwd = {}, const std::vector<OrderedJson>& children = {}) {
    OrderedJson node = {{"name", name}, {"route", route}, {"type", "net"}};
    node["fwd_outputs"] = OrderedJson::array();
    for (const auto& path : fwd)
      node["fwd_outputs"].push_back({{"path", path}, {"shape", "[?]"}, {"dtype", "paddle.float32"}});
    node["bwd_grads"] = OrderedJson::array();
    for (const auto& path : bwd)
      node["bwd_grads"].push_back({{"path", path}, {"shape", "[?]"}, {"dtype", "paddle.float32"}});
    node["children"] = children;
    return node;
  }

  // A params.json node; `weights` and `grads` keep the given order.
  static OrderedJson param_node(const std::string& name, const std::string& route, const OrderedJson& weights,
                                const OrderedJson& grads = OrderedJson::object(),
                                const std::vector<OrderedJson>& children = {}) {
    return {{"name", name},       {"route", route}, {"repr", name + "()"}, {"available", true},
            {"weights", weights}, {"grads", grads}, {"children", children}};
  }

  // `layer_map` is report.json's {"route": [...], "fullname": [...]}, left out when null.
  void write_report(const std::vector<OrderedJson>& roots, const std::string& framework = "paddle",
                    const OrderedJson& layer_map = nullptr) const {
    OrderedJson report = {{"model_name", "Model"}, {"framework", framework}};
    if (!layer_map.is_null()) report["layer_map"] = layer_map;
    report["tree"] = roots;
    temp_.write(rank_dir_ + "/report.json", report.dump(1));
  }

  void write_params(const OrderedJson& tree, const std::string& framework = "paddle",
                    const std::string& file = "params.json") const {
    const OrderedJson params = {{"model_name", "Model"}, {"framework", framework}, {"tree", tree}};
    temp_.write(rank_dir_ + "/" + file, params.dump(1));
  }

 private:
  const TempDir& temp_;
  std::string rank_dir_;
  int next_ = 0;
};

}  // namespace tipc::test
