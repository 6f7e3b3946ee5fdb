#pragma once
// A restricted unpickler for what np.save writes into object arrays (reprod_log result
// files) and for protocol-5 pickles of numeric arrays.
//
// It interprets protocols 2 to 5 opcode by opcode and never executes anything: the only
// "callables" are a fixed allow-list of numpy globals (in both the numpy.core and the
// numpy 2 numpy._core spellings), each rebuilt natively. Any other global (os.system,
// builtins.eval, copyreg._reconstructor, ...) is an error naming it. The memo holds
// references, so an array memoised before its BUILD is seen filled through a later GET.
// Arrays whose raw bytes sit in the pickle point into the input bytes (no copy).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "align/io/array.h"
#include "core/error.h"

namespace tipc::align {

// One node of an unpickled (or loaded) object tree. Shared nodes stay shared: the same
// array stored under two keys is one Value.
struct Value {
  using Ptr = std::shared_ptr<const Value>;
  struct None {};
  using List = std::vector<Ptr>;
  struct Tuple {
    std::vector<Ptr> items;
  };
  // A key of a Python dict: str, or any hashable scalar a dict can hold (int, float, bool,
  // None, bytes, tuples of these).
  struct Key {
    std::string text;      // Python's str(key): what reprod_log prints ("7", "(1, 'a')", "b'x'")
    std::string identity;  // equal exactly when the Python keys are equal (1 == 1.0 == True)
    // A str key; implicit so that string-keyed dicts (.npz members, tests) read naturally.
    Key(std::string name);                             // NOLINT(google-explicit-constructor)
    Key(const char* name) : Key(std::string(name)) {}  // NOLINT(google-explicit-constructor)
    Key(std::string text, std::string identity) : text(std::move(text)), identity(std::move(identity)) {}
  };
  // Python dict in insertion order (which is the report order).
  struct Dict {
    std::vector<std::pair<Key, Ptr>> items;
    const Value* find(const Key& key) const;  // by value, as Python's dict lookup
  };
  // A numpy scalar such as np.float32(1.25): a 0-d array that is not an ndarray.
  struct Scalar {
    Array value;
  };
  // An ndarray of Python objects (dtype 'O') that is not 0-d; 0-d ones are unwrapped by load_values.
  struct ObjectArray {
    std::vector<std::size_t> shape;
    bool fortran_order = false;
    std::vector<Ptr> elements;  // in the order the pickle lists them (C order unless fortran_order)
  };
  using Data = std::variant<None, bool, std::int64_t, double, std::string, SharedBytes, List, Tuple, Dict, Array,
                            Scalar, ObjectArray>;

  Data data;

  template <typename T>
  bool is() const {
    return std::holds_alternative<T>(data);
  }
  template <typename T>
  const T* get() const {
    return std::get_if<T>(&data);
  }
  // Python-ish kind for messages: "dict", "float", "float32 array of shape (2, 3)", ...
  std::string describe() const;
};

struct UnpickleLimits {
  std::size_t max_stack = 1 << 20;             // stack entries
  std::size_t max_memo = 1 << 24;              // memo entries
  std::size_t max_depth = 200;                 // nesting of containers in the result
  std::size_t max_decoded_bytes = 4ull << 30;  // bytes built by decoding (protocol-2 latin-1 text)
  // The budget: objects, container elements, memo entries and marks, one unit each, at most
  // max(budget_floor, pickle bytes / bytes_per_unit) (docs/cli.md#bounded-reading states it).
  std::size_t budget_floor = 1 << 16;
  std::size_t bytes_per_unit = 512;

  std::size_t budget_for(std::size_t pickle_bytes) const {
    return std::max(budget_floor, pickle_bytes / bytes_per_unit);
  }
};

// What the caller takes the pickle to be. kResult: a reprod_log result file's object (a
// dict, maybe in a 0-d object array, or an array); a list, tuple or object array at the top
// is refused before any Value is built.
enum class PickleRoot { kAny, kResult };

// Unpickles `bytes` (a whole pickle, starting with PROTO). `name` is used in errors,
// which also give the byte offset of the offending opcode.
Result<Value> unpickle(const SharedBytes& bytes, const std::string& name, const UnpickleLimits& limits = {},
                       PickleRoot root = PickleRoot::kAny);

// Where a pickle ends, found without building anything: the .npz reader inflates an object
// member only up to its STOP opcode, as numpy's pickle.load reads it, however much follows.
class PickleEndFinder {
 public:
  enum class State {
    kMore,     // the bytes so far end inside the pickle
    kEnd,      // the pickle's bytes are the first length(): its STOP, and any FRAME's bytes after it
    kRefused,  // an opcode the unpickler refuses: reading on cannot help, unpickle names it
  };
  // `prefix` is the pickle's bytes so far: the same bytes as at the last call, and more.
  State scan(std::string_view prefix);
  std::size_t length() const { return pos_; }

 private:
  std::size_t pos_ = 0;
  std::size_t frame_end_ = 0;  // the furthest end a FRAME so far announced
};

}  // namespace tipc::align
