#pragma once
// Shared by the fuzz targets: a check that aborts with a message (libFuzzer then saves
// the input as a crash) and a walk over loaded Values that touches every element the
// diff engine could read, so a reader that hands out an Array with too few bytes, or a
// shape that does not match its elements, is caught by ASan or by a check here.
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "align/io/array.h"
#include "align/io/pickle.h"

#define FUZZ_CHECK(cond)                                                                 \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      std::fprintf(stderr, "%s:%d: fuzz check failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                      \
    }                                                                                    \
  } while (0)

namespace tipc::fuzz {

// Elements read per array; larger arrays have their first and last elements read.
inline constexpr std::size_t kElementsTouched = 1 << 14;

inline void touch_element(const align::Array& a, std::size_t i) {
  volatile double sink = a.value_at(i);
  const auto c = a.complex_at(i);
  sink = c.real() + c.imag();
  // int_at/uint_at are only called on integer and bool arrays (promote.cpp, leaf_diff.cpp).
  if (a.dtype.kind != align::DtypeKind::kFloat && a.dtype.kind != align::DtypeKind::kComplex) {
    sink = static_cast<double>(a.int_at(i)) + static_cast<double>(a.uint_at(i));
  }
  (void)sink;
}

inline void check_array(const align::Array& a) {
  const auto dtype = align::dtype_from_descr(a.dtype.descr());
  FUZZ_CHECK(dtype.has_value() && dtype->kind == a.dtype.kind && dtype->item_size == a.dtype.item_size);
  const auto count = align::element_count(a.shape);
  const auto bytes = align::byte_count(a.shape, a.dtype.item_size);
  FUZZ_CHECK(count.has_value() && bytes.has_value());
  FUZZ_CHECK(a.size() == *count);
  FUZZ_CHECK(a.data.size() == *bytes);  // the invariant every element accessor relies on
  (void)a.describe();
  const std::size_t n = *count;
  for (std::size_t k = 0; k < n && k < kElementsTouched; ++k) {
    for (const std::size_t c_index : {k, n - 1 - k}) {
      const std::size_t s = a.storage_index(c_index);
      FUZZ_CHECK(s < n);
      touch_element(a, s);
    }
  }
  if (n <= kElementsTouched) FUZZ_CHECK(a.to_doubles().size() == n);
}

// Walks a Value tree once per node (nodes may be shared, so a DAG is not walked as a tree).
class ValueWalker {
 public:
  void walk(const align::Value& v, std::size_t depth = 0) {
    FUZZ_CHECK(depth < 10000);
    if (!seen_.insert(&v).second) return;
    (void)v.describe();
    if (const auto* a = v.get<align::Array>()) check_array(*a);
    if (const auto* s = v.get<align::Value::Scalar>()) {
      FUZZ_CHECK(s->value.shape.empty());
      check_array(s->value);
    }
    if (const auto* list = v.get<align::Value::List>()) walk_all(*list, depth);
    if (const auto* tuple = v.get<align::Value::Tuple>()) walk_all(tuple->items, depth);
    if (const auto* objects = v.get<align::Value::ObjectArray>()) {
      const auto count = align::element_count(objects->shape);
      FUZZ_CHECK(count.has_value() && *count == objects->elements.size());
      walk_all(objects->elements, depth);
    }
    if (const auto* dict = v.get<align::Value::Dict>()) {
      std::set<std::string> keys;
      for (const auto& [key, item] : dict->items) {
        FUZZ_CHECK(keys.insert(key.identity).second);  // Python dict keys are unique (by value)
        FUZZ_CHECK(item != nullptr);
        FUZZ_CHECK(dict->find(key) == item.get());
        walk(*item, depth + 1);
      }
    }
  }

 private:
  void walk_all(const std::vector<align::Value::Ptr>& items, std::size_t depth) {
    for (const auto& item : items) {
      FUZZ_CHECK(item != nullptr);
      walk(*item, depth + 1);
    }
  }
  std::set<const align::Value*> seen_;
};

inline void walk_value(const align::Value& v) { ValueWalker().walk(v); }

}  // namespace tipc::fuzz
