#include "align/io/pickle.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <deque>
#include <limits>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "align/io/parse_failure.h"
#include "align/io/py_repr.h"

namespace tipc::align {
namespace {

// ---- The unpickler's working objects ---------------------------------------------------
// They live in an arena owned by the unpickler and refer to each other by raw pointer,
// so a malicious cycle can neither leak nor recurse while the pickle is read; cycles are
// rejected when the result is turned into Values.

struct Obj;

// The allow-listed globals, each rebuilt natively (nothing is ever looked up or called).
enum class Callable {
  kReconstruct,
  kNdarrayClass,
  kDtypeClass,
  kScalar,
  kCodecsEncode,
  kFromBuffer,
  kOrderedDict,
  kBytes
};

struct GlobalObj {
  Callable which;
  std::string spelled;  // "module.name" as written, for messages
};
struct NoneObj {};
struct ListObj {
  std::vector<Obj*> items;
};
struct TupleObj {
  std::vector<Obj*> items;
};
struct DictObj {
  std::vector<std::pair<Value::Key, Obj*>> items;
  std::unordered_map<std::string, std::size_t> position;  // key identity -> index into items
};
// numpy.dtype(code, False, True), waiting for (or after) its BUILD with the byte order.
struct DtypeObj {
  std::string code;
  bool object = false;           // 'O8' / 'O4': elements are Python objects
  std::optional<Dtype> numeric;  // set for numeric codes
  bool built = false;
};
// An ndarray: a placeholder from _reconstruct until a BUILD fills it.
struct ArrayObj {
  bool built = false;
  bool object = false;
  Array numeric;                   // when !object
  std::vector<std::size_t> shape;  // when object
  bool fortran_order = false;      // when object
  std::vector<Obj*> elements;      // when object
};
struct ScalarObj {
  Array value;
};

// The larger kinds live behind a pointer, so that an object takes 48 bytes, not 168: a
// pickle of many small objects costs what the budget allows times that.
template <typename T>
using Boxed = std::unique_ptr<T>;
template <typename T>
constexpr bool kBoxed = std::is_same_v<T, DictObj> || std::is_same_v<T, DtypeObj> || std::is_same_v<T, ArrayObj> ||
                        std::is_same_v<T, ScalarObj>;

struct Obj {
  std::variant<NoneObj, bool, std::int64_t, double, std::string, SharedBytes, ListObj, TupleObj, Boxed<DictObj>,
               GlobalObj, Boxed<DtypeObj>, Boxed<ArrayObj>, Boxed<ScalarObj>>
      v;
};

// The object as a T (a boxed kind unwrapped), or nullptr.
template <typename T, typename O>  // O: Obj or const Obj
auto* find_as(O& obj) {
  if constexpr (kBoxed<T>) {
    auto* box = std::get_if<Boxed<T>>(&obj.v);
    return box != nullptr ? static_cast<std::conditional_t<std::is_const_v<O>, const T*, T*>>(box->get()) : nullptr;
  } else {
    return std::get_if<T>(&obj.v);
  }
}

std::string kind_of(const Obj& obj) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, NoneObj>) return "None";
        if constexpr (std::is_same_v<T, bool>) return "bool";
        if constexpr (std::is_same_v<T, std::int64_t>) return "int";
        if constexpr (std::is_same_v<T, double>) return "float";
        if constexpr (std::is_same_v<T, std::string>) return "str";
        if constexpr (std::is_same_v<T, SharedBytes>) return "bytes";
        if constexpr (std::is_same_v<T, ListObj>) return "list";
        if constexpr (std::is_same_v<T, TupleObj>) return "tuple";
        if constexpr (std::is_same_v<T, Boxed<DictObj>>) return "dict";
        if constexpr (std::is_same_v<T, GlobalObj>) return "global " + x.spelled;
        if constexpr (std::is_same_v<T, Boxed<DtypeObj>>) return "numpy dtype";
        if constexpr (std::is_same_v<T, Boxed<ArrayObj>>) return "numpy ndarray";
        if constexpr (std::is_same_v<T, Boxed<ScalarObj>>) return "numpy scalar";
      },
      obj.v);
}

// ---- The allow-list (docs/log-formats.md#the-unpicklers-allow-list) -------------------

bool is_multiarray_module(std::string_view module) {
  return module == "numpy.core.multiarray" || module == "numpy._core.multiarray" ||
         module == "numpy.core._multiarray_umath" || module == "numpy._core._multiarray_umath";
}

std::optional<Callable> allowed_global(std::string_view module, std::string_view name) {
  if (is_multiarray_module(module) && name == "_reconstruct") return Callable::kReconstruct;
  if (is_multiarray_module(module) && name == "scalar") return Callable::kScalar;
  if (module == "numpy" && name == "ndarray") return Callable::kNdarrayClass;
  if (module == "numpy" && name == "dtype") return Callable::kDtypeClass;
  if (module == "_codecs" && name == "encode") return Callable::kCodecsEncode;
  if ((module == "numpy.core.numeric" || module == "numpy._core.numeric") && name == "_frombuffer") {
    return Callable::kFromBuffer;
  }
  if (module == "collections" && name == "OrderedDict") return Callable::kOrderedDict;
  // Protocol 2 pickles an empty bytes object as a call of bytes() with no arguments
  // (spelled __builtin__ under Python 3's fix_imports); only that empty call is accepted.
  if ((module == "__builtin__" || module == "builtins") && name == "bytes") return Callable::kBytes;
  return std::nullopt;
}

// ---- Small decoding helpers -------------------------------------------------------------

// Calls `visit` with each code point of UTF-8 text; false if the text is not valid UTF-8.
// Not core/utf8's strict decoder: pickle decodes its strings with "surrogatepass", so
// encoded surrogates (which Python may write for lone surrogates) must load.
template <typename Visit>
bool for_each_code_point(std::string_view text, Visit&& visit) {
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const int extra = lead < 0x80 ? 0 : (lead >> 5) == 0x6 ? 1 : (lead >> 4) == 0xe ? 2 : (lead >> 3) == 0x1e ? 3 : -1;
    if (extra < 0 || text.size() - i <= static_cast<std::size_t>(extra)) return false;
    std::uint32_t point = extra == 0 ? lead : lead & (0x3fu >> extra);
    for (int k = 1; k <= extra; ++k) {
      const auto next = static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]);
      if ((next & 0xc0) != 0x80) return false;
      point = (point << 6) | (next & 0x3fu);
    }
    visit(point);
    i += static_cast<std::size_t>(extra) + 1;
  }
  return true;
}

}  // namespace

// ---- The interpreter ----------------------------------------------------------------------

namespace {

class Unpickler {
 public:
  Unpickler(const SharedBytes& bytes, const std::string& name, const UnpickleLimits& limits, PickleRoot root)
      : bytes_(bytes), name_(name), limits_(limits), root_(root), budget_(limits.budget_for(bytes.size())) {}

  Value run() {
    read_protocol();
    while (true) {
      op_pos_ = pos_;
      const std::uint8_t op = u8();
      if (op == '.') break;  // STOP
      step(op);
    }
    Obj* root = pop();
    if (root_ == PickleRoot::kResult) check_result_root(*root);  // before a single Value is built
    return to_value(root);
  }

 private:
  // ---- errors and input ----
  [[noreturn]] void error(const std::string& message) const {
    throw_parse_failure(Error::at(name_, 0, "", fmt::format("pickle offset {}: {}", op_pos_, message)));
  }

  std::size_t remaining() const { return bytes_.size() - pos_; }

  std::size_t checked_length(std::uint64_t n) const {
    if (n > remaining()) error(fmt::format("truncated pickle: {} bytes announced, only {} left", n, remaining()));
    return static_cast<std::size_t>(n);
  }

  std::uint64_t le(std::size_t width) {
    checked_length(width);
    std::uint64_t value = 0;
    for (std::size_t i = width; i-- > 0;)
      value = (value << 8) | std::to_integer<std::uint64_t>(bytes_.data()[pos_ + i]);
    pos_ += width;
    return value;
  }

  std::uint64_t be64() {
    checked_length(8);
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < 8; ++i) value = (value << 8) | std::to_integer<std::uint64_t>(bytes_.data()[pos_ + i]);
    pos_ += 8;
    return value;
  }

  std::uint8_t u8() {
    if (remaining() == 0) error("truncated pickle: no STOP opcode");
    return std::to_integer<std::uint8_t>(bytes_.data()[pos_++]);
  }

  SharedBytes take(std::uint64_t n) {
    const std::size_t length = checked_length(n);
    SharedBytes out = bytes_.slice(pos_, length);
    pos_ += length;
    return out;
  }

  std::string take_text(std::uint64_t n) {
    const std::string_view text = take(n).view();
    if (!for_each_code_point(text, [](std::uint32_t) {})) error("string is not valid UTF-8");
    return std::string(text);
  }

  std::string line() {
    const std::string_view rest = bytes_.view().substr(pos_);
    const std::size_t end = rest.find('\n');
    if (end == std::string_view::npos || end > 256) error("GLOBAL operand is not a short text line");
    pos_ += end + 1;
    return std::string(rest.substr(0, end));
  }

  // ---- the budget, stack, marks, memo ----
  // Every object, container element, memo entry and mark costs one unit: what a pickle may
  // build is proportional to its size, so a few bytes that each build an object (EMPTY_LIST,
  // APPEND) cannot amplify into gigabytes.
  void spend(std::size_t units) {
    if (units > budget_ - spent_) {
      error(fmt::format("the pickle builds more than {} objects and container elements, the budget for its {} bytes",
                        budget_, bytes_.size()));
    }
    spent_ += units;
  }

  template <typename T>
  Obj* make(T value) {
    spend(1);
    if constexpr (kBoxed<T>) {
      arena_.push_back(Obj{std::make_unique<T>(std::move(value))});
    } else {
      arena_.push_back(Obj{std::move(value)});
    }
    return &arena_.back();
  }

  // None, True and False are one object each, as in Python: a list of a million Nones is a
  // million references, not a million objects (nor a million Values).
  Obj* constant(Obj& shared) {
    spend(1);
    return &shared;
  }

  void push_mark() {
    spend(1);
    marks_.push_back(stack_.size());
  }

  std::size_t floor() const { return marks_.empty() ? 0 : marks_.back(); }

  void push(Obj* obj) {
    if (stack_.size() >= limits_.max_stack) error("stack limit exceeded");
    stack_.push_back(obj);
  }

  Obj* top() const {
    if (stack_.size() <= floor()) error("stack underflow");
    return stack_.back();
  }

  Obj* pop() {
    Obj* obj = top();
    stack_.pop_back();
    return obj;
  }

  std::vector<Obj*> pop_to_mark() {
    if (marks_.empty()) error("no MARK to pop to");
    const std::size_t mark = marks_.back();
    marks_.pop_back();
    spend(stack_.size() - mark);
    std::vector<Obj*> items(stack_.begin() + static_cast<std::ptrdiff_t>(mark), stack_.end());
    stack_.resize(mark);
    return items;
  }

  std::vector<Obj*> pop_n(std::size_t n) {
    if (stack_.size() < floor() + n) error("stack underflow");
    spend(n);
    std::vector<Obj*> items(stack_.end() - static_cast<std::ptrdiff_t>(n), stack_.end());
    stack_.resize(stack_.size() - n);
    return items;
  }

  void memo_put(std::uint64_t index) {
    Obj* obj = top();
    const auto [entry, added] = memo_.try_emplace(index, obj);
    if (!added) {
      entry->second = obj;
      return;
    }
    if (memo_.size() > limits_.max_memo) error("memo limit exceeded");
    spend(1);
  }

  void memo_get(std::uint64_t index) {
    const auto found = memo_.find(index);
    if (found == memo_.end()) error(fmt::format("memo entry {} is read before it is written", index));
    push(found->second);
  }

  // ---- typed access to operands ----
  template <typename T>
  T& as(Obj* obj, const char* what) const {
    if (T* x = find_as<T>(*obj)) return *x;
    error(fmt::format("{} expected, got {}", what, kind_of(*obj)));
  }

  std::int64_t as_int(Obj* obj, const char* what) const {
    if (const auto* b = std::get_if<bool>(&obj->v)) return *b ? 1 : 0;  // Python bools are ints
    return as<std::int64_t>(obj, what);
  }

  std::vector<std::size_t> as_shape(Obj* obj) const {
    std::vector<std::size_t> shape;
    for (Obj* dim : as<TupleObj>(obj, "shape tuple").items) {
      const std::int64_t value = as<std::int64_t>(dim, "shape dimension");
      if (value < 0) error("negative shape dimension");
      shape.push_back(static_cast<std::size_t>(value));
    }
    return shape;
  }

  // ---- opcodes ----
  void read_protocol() {
    op_pos_ = pos_;
    if (u8() != 0x80) error("pickle protocol 0 or 1 (no PROTO opcode) is not supported; protocols 2 to 5 are");
    const std::uint8_t version = u8();
    if (version < 2 || version > 5) error(fmt::format("pickle protocol {} is not supported (2 to 5 are)", version));
  }

  void step(std::uint8_t op) {
    switch (op) {
      case 0x80: error("PROTO may only appear at the start");
      case 0x95: checked_length(le(8)); break;  // FRAME: a read-ahead hint; its opcodes follow inline
      case '(': push_mark(); break;
      case 'c': op_global(); break;
      case 0x93: op_stack_global(); break;
      case 'R': op_reduce(); break;
      case 'b': op_build(); break;
      case 'q': memo_put(le(1)); break;
      case 'r': memo_put(le(4)); break;
      case 0x94: memo_put(memo_.size()); break;
      case 'h': memo_get(le(1)); break;
      case 'j': memo_get(le(4)); break;
      case ')': push(make(TupleObj{})); break;
      case 't': push(make(TupleObj{pop_to_mark()})); break;
      case 0x85: push(make(TupleObj{pop_n(1)})); break;
      case 0x86: push(make(TupleObj{pop_n(2)})); break;
      case 0x87: push(make(TupleObj{pop_n(3)})); break;
      case ']': push(make(ListObj{})); break;
      case 'a': op_append(); break;
      case 'e': op_appends(); break;
      case '}': push(make(DictObj{})); break;
      case 's': op_setitem(); break;
      case 'u': op_setitems(); break;
      default: step_value(op);
    }
  }

  void step_value(std::uint8_t op) {
    switch (op) {
      case 'N': push(constant(none_)); break;
      case 0x88: push(constant(true_)); break;
      case 0x89: push(constant(false_)); break;
      case 'J': push(make(static_cast<std::int64_t>(static_cast<std::int32_t>(le(4))))); break;
      case 'K': push(make(static_cast<std::int64_t>(le(1)))); break;
      case 'M': push(make(static_cast<std::int64_t>(le(2)))); break;
      case 0x8a: op_long(le(1)); break;
      case 0x8b: op_long(le(4)); break;
      case 'G': push(make(std::bit_cast<double>(be64()))); break;  // BINFLOAT is big-endian
      case 'X': push(make(take_text(le(4)))); break;
      case 0x8c: push(make(take_text(le(1)))); break;
      case 0x8d: push(make(take_text(le(8)))); break;
      case 'C': push(make(take(le(1)))); break;
      case 'B': push(make(take(le(4)))); break;
      case 0x8e: push(make(take(le(8)))); break;
      case 0x96: push(make(take(le(8)))); break;  // BYTEARRAY8: in-band buffer, read like bytes
      default: reject_opcode(op);
    }
  }

  [[noreturn]] void reject_opcode(std::uint8_t op) const {
    switch (op) {
      case 0x97:
      case 0x98: error("out-of-band pickle buffers (NEXT_BUFFER/READONLY_BUFFER) cannot come from a file");
      case 'U':
      case 'T': error("Python 2 byte strings (SHORT_BINSTRING/BINSTRING) are not supported");
      case 'i':
      case 'o':
      case 0x81:
      case 0x92: error("object-creating opcodes (INST/OBJ/NEWOBJ/NEWOBJ_EX) are not allowed");
      case 'P':
      case 'Q': error("persistent ids (PERSID/BINPERSID) are not allowed");
      case 0x82:
      case 0x83:
      case 0x84: error("extension registry opcodes (EXT1/EXT2/EXT4) are not allowed");
      default: error(fmt::format("unsupported pickle opcode 0x{:02x}", op));
    }
  }

  void op_long(std::uint64_t n) {
    if (n > 8) error("integer wider than 64 bits");
    const SharedBytes raw = take(n);
    std::uint64_t value = 0;
    for (std::size_t i = n; i-- > 0;) value = (value << 8) | std::to_integer<std::uint64_t>(raw.data()[i]);
    if (n > 0 && n < 8 && (std::to_integer<unsigned>(raw.data()[n - 1]) & 0x80u)) value |= ~0ull << (8 * n);  // sign
    push(make(static_cast<std::int64_t>(value)));
  }

  void push_global(const std::string& module, const std::string& name) {
    const auto which = allowed_global(module, name);
    if (!which) {
      error("global '" + module + "." + name + "' is not allowed (only numpy array globals are; nothing is executed)");
    }
    push(make(GlobalObj{*which, module + "." + name}));
  }

  void op_global() {
    std::string module = line();
    std::string name = line();
    push_global(module, name);
  }

  void op_stack_global() {
    std::string name = as<std::string>(pop(), "STACK_GLOBAL name");
    std::string module = as<std::string>(pop(), "STACK_GLOBAL module");
    push_global(module, name);
  }

  void op_append() {
    Obj* item = pop();
    spend(1);
    as<ListObj>(top(), "APPEND target list").items.push_back(item);
  }

  void op_appends() {
    std::vector<Obj*> items = pop_to_mark();
    auto& list = as<ListObj>(top(), "APPENDS target list").items;
    list.insert(list.end(), items.begin(), items.end());
  }

  void set_item(DictObj& dict, Obj* key_obj, Obj* value) {
    Value::Key key = dict_key(key_obj, 0);
    const auto [it, inserted] = dict.position.try_emplace(key.identity, dict.items.size());
    if (inserted) {
      dict.items.emplace_back(std::move(key), value);
    } else {
      dict.items[it->second].second = value;  // Python keeps the first key and its position
    }
  }

  // The hashable scalars a dict key can be, with their str() and their equality: numbers
  // compare by value across int, float and bool; str, bytes and None only equal their own kind.
  Value::Key dict_key(Obj* obj, std::size_t depth) const {
    if (depth > limits_.max_depth) error("dict key nested deeper than the limit");
    if (const auto* text = std::get_if<std::string>(&obj->v)) return Value::Key{*text};
    if (const auto* raw = std::get_if<SharedBytes>(&obj->v)) {
      return {python_bytes_repr(raw->view()), "b" + std::string(raw->view())};
    }
    if (std::holds_alternative<NoneObj>(obj->v)) return {"None", "N"};
    if (const auto* flag = std::get_if<bool>(&obj->v)) return {*flag ? "True" : "False", *flag ? "n1" : "n0"};
    if (const auto* integer = std::get_if<std::int64_t>(&obj->v)) {
      return {python_int_repr(*integer), "n" + python_int_repr(*integer)};
    }
    if (const auto* real = std::get_if<double>(&obj->v)) return {python_float_repr(*real), number_identity(*real)};
    if (const auto* tuple = std::get_if<TupleObj>(&obj->v)) return tuple_key(*tuple, depth);
    error("dict key of type " + kind_of(*obj) +
          " is not supported (str, int, float, bool, None, bytes and tuples of these are)");
  }

  // A float equal to an int is the same key as that int (hash(1.0) == hash(1)).
  static std::string number_identity(double v) {
    constexpr double kTwo63 = 9223372036854775808.0;
    if (v == std::trunc(v) && v >= -kTwo63 && v < kTwo63) return "n" + python_int_repr(static_cast<std::int64_t>(v));
    return "f" + python_float_repr(v);
  }

  // Inside a tuple a str shows as its repr: str((1, 'a')) is "(1, 'a')".
  Value::Key tuple_key(const TupleObj& tuple, std::size_t depth) const {
    std::string text = "(", identity = "t";
    for (std::size_t i = 0; i < tuple.items.size(); ++i) {
      Value::Key item = dict_key(tuple.items[i], depth + 1);
      const auto* item_text = std::get_if<std::string>(&tuple.items[i]->v);
      text += (i > 0 ? ", " : "") + (item_text ? python_str_repr(*item_text) : item.text);
      identity += std::to_string(item.identity.size()) + ":" + item.identity;  // length-prefixed: unambiguous
    }
    return {text + (tuple.items.size() == 1 ? ",)" : ")"), identity};
  }

  void op_setitem() {
    Obj* value = pop();
    Obj* key = pop();
    spend(2);  // as SETITEMS counts its popped key and value
    set_item(as<DictObj>(top(), "SETITEM target dict"), key, value);
  }

  void op_setitems() {
    const std::vector<Obj*> items = pop_to_mark();
    if (items.size() % 2 != 0) error("SETITEMS with an odd number of items");
    auto& dict = as<DictObj>(top(), "SETITEMS target dict");
    for (std::size_t i = 0; i < items.size(); i += 2) set_item(dict, items[i], items[i + 1]);
  }

  // ---- REDUCE: the allow-listed calls ----
  void op_reduce() {
    Obj* args_obj = pop();
    const GlobalObj callable = as<GlobalObj>(pop(), "callable");
    const std::vector<Obj*>& args = as<TupleObj>(args_obj, "argument tuple").items;
    push(call(callable, args));
  }

  void expect_arity(const GlobalObj& callable, const std::vector<Obj*>& args, std::size_t low, std::size_t high) const {
    if (args.size() < low || args.size() > high) {
      error(fmt::format("{} called with {} arguments", callable.spelled, args.size()));
    }
  }

  Obj* call(const GlobalObj& callable, const std::vector<Obj*>& args) {
    switch (callable.which) {
      case Callable::kReconstruct: return call_reconstruct(callable, args);
      case Callable::kDtypeClass: return call_dtype(callable, args);
      case Callable::kScalar: return call_scalar(callable, args);
      case Callable::kCodecsEncode: return call_encode(callable, args);
      case Callable::kFromBuffer: return call_frombuffer(callable, args);
      case Callable::kOrderedDict: expect_arity(callable, args, 0, 0); return make(DictObj{});
      case Callable::kBytes: expect_arity(callable, args, 0, 0); return make(SharedBytes{});
      case Callable::kNdarrayClass: break;
    }
    error(callable.spelled + " cannot be called; it is only valid as the class argument of _reconstruct");
  }

  Obj* call_reconstruct(const GlobalObj& callable, const std::vector<Obj*>& args) {
    expect_arity(callable, args, 3, 3);
    const auto* cls = std::get_if<GlobalObj>(&args[0]->v);
    if (cls == nullptr || cls->which != Callable::kNdarrayClass) {
      error("_reconstruct of " + kind_of(*args[0]) + ": only numpy.ndarray is supported (no subclasses)");
    }
    return make(ArrayObj{});
  }

  Obj* call_dtype(const GlobalObj& callable, const std::vector<Obj*>& args) {
    expect_arity(callable, args, 1, 3);
    const std::string& code = as<std::string>(args[0], "dtype code");
    DtypeObj dtype;
    dtype.code = code;
    if (code == "O8" || code == "O4" || code == "O") {
      dtype.object = true;
    } else {
      dtype.numeric =
          dtype_from_code(code, std::endian::native == std::endian::little ? ByteOrder::kLittle : ByteOrder::kBig);
      if (!dtype.numeric) error("unsupported dtype '" + code + "' (numeric, bool, complex and object dtypes are)");
    }
    return make(std::move(dtype));
  }

  const Dtype& numeric_dtype(Obj* obj, const char* what) const {
    const DtypeObj& dtype = as<DtypeObj>(obj, what);
    if (!dtype.numeric) error(std::string(what) + " must be numeric, got '" + dtype.code + "'");
    return *dtype.numeric;
  }

  Obj* call_scalar(const GlobalObj& callable, const std::vector<Obj*>& args) {
    expect_arity(callable, args, 2, 2);
    const Dtype& dtype = numeric_dtype(args[0], "scalar dtype");
    const SharedBytes& raw = as<SharedBytes>(args[1], "scalar bytes");
    if (raw.size() != dtype.item_size) {
      error(fmt::format("scalar of {} has {} bytes, expected {}", dtype.name(), raw.size(), dtype.item_size));
    }
    return make(ScalarObj{Array{dtype, {}, false, raw}});
  }

  Obj* call_encode(const GlobalObj& callable, const std::vector<Obj*>& args) {
    expect_arity(callable, args, 2, 2);
    const std::string& text = as<std::string>(args[0], "text to encode");
    const std::string& encoding = as<std::string>(args[1], "encoding");
    if (encoding != "latin1" && encoding != "latin-1") error("_codecs.encode with encoding '" + encoding + "'");
    std::vector<std::byte> out;
    out.reserve(text.size());                             // at least one byte of UTF-8 per code point
    for_each_code_point(text, [&](std::uint32_t point) {  // validated when read
      if (point > 0xff) error("_codecs.encode: a code point above 255 is not latin-1");
      out.push_back(static_cast<std::byte>(point));
    });
    if (decoded_bytes_ + out.size() > limits_.max_decoded_bytes) error("decoded byte limit exceeded");
    decoded_bytes_ += out.size();
    return make(SharedBytes::own(std::move(out)));
  }

  void check_payload(const Dtype& dtype, const std::vector<std::size_t>& shape, std::size_t actual) const {
    const auto expected = byte_count(shape, dtype.item_size);
    if (!expected) error("shape " + shape_text(shape) + " is too large");
    if (*expected != actual) {
      error(fmt::format("{} array of shape {} needs {} bytes, the pickle has {}", dtype.name(), shape_text(shape),
                        *expected, actual));
    }
  }

  Obj* call_frombuffer(const GlobalObj& callable, const std::vector<Obj*>& args) {
    expect_arity(callable, args, 4, 4);
    const SharedBytes& raw = as<SharedBytes>(args[0], "_frombuffer buffer");
    const Dtype& dtype = numeric_dtype(args[1], "_frombuffer dtype");
    std::vector<std::size_t> shape = as_shape(args[2]);
    const std::string& order = as<std::string>(args[3], "_frombuffer order");
    if (order != "C" && order != "F") error("_frombuffer order '" + order + "' (C or F expected)");
    check_payload(dtype, shape, raw.size());
    ArrayObj array;
    array.built = true;
    array.numeric = Array{dtype, std::move(shape), order == "F", raw};
    return make(std::move(array));
  }

  // ---- BUILD: in-place state of a dtype or an ndarray ----
  void op_build() {
    Obj* state = pop();
    Obj* target = top();
    if (auto* dtype = find_as<DtypeObj>(*target)) return build_dtype(*dtype, state);
    if (auto* array = find_as<ArrayObj>(*target)) return build_array(*array, state);
    error("BUILD on a " + kind_of(*target) + " is not allowed");
  }

  void build_dtype(DtypeObj& dtype, Obj* state_obj) {
    if (dtype.built) error("a dtype is built twice");
    const auto& state = as<TupleObj>(state_obj, "dtype state tuple").items;
    if (state.size() != 8 || as_int(state[0], "dtype state version") != 3) {
      error(
          fmt::format("dtype state with {} fields: only version-3 states (8 fields) are supported; datetime dtypes "
                      "and dtypes with metadata are not",
                      state.size()));
    }
    const std::string& order_text = as<std::string>(state[1], "dtype byte order");
    const auto order = order_text.size() == 1 ? byte_order_from_char(order_text[0]) : std::nullopt;
    if (!order) error("dtype byte order '" + order_text + "'");
    if (dtype.numeric) dtype.numeric = dtype_from_code(dtype.code, *order);
    dtype.built = true;
  }

  void build_array(ArrayObj& array, Obj* state_obj) {
    if (array.built) error("an ndarray is built twice");
    auto state = as<TupleObj>(state_obj, "ndarray state tuple").items;
    if (state.size() == 5) {
      if (as_int(state[0], "ndarray state version") != 1) error("ndarray state version is not 1");
      state.erase(state.begin());  // numpy also accepts the 4-field form without a version
    }
    if (state.size() != 4) error(fmt::format("ndarray state with {} fields (5 expected)", state.size()));
    std::vector<std::size_t> shape = as_shape(state[0]);
    const DtypeObj& dtype = as<DtypeObj>(state[1], "ndarray dtype");
    const bool fortran = as<bool>(state[2], "is_fortran flag");
    if (dtype.object) {
      build_object_array(array, std::move(shape), fortran, state[3]);
    } else {
      const SharedBytes& raw = as<SharedBytes>(state[3], "ndarray raw bytes");
      check_payload(*dtype.numeric, shape, raw.size());
      array.numeric = Array{*dtype.numeric, std::move(shape), fortran, raw};
    }
    array.built = true;
  }

  void build_object_array(ArrayObj& array, std::vector<std::size_t> shape, bool fortran, Obj* data) {
    const auto& elements = as<ListObj>(data, "object array element list").items;
    const auto count = element_count(shape);
    if (!count || *count != elements.size()) {
      error(fmt::format("object array of shape {} holds {} elements", shape_text(shape), elements.size()));
    }
    array.object = true;
    array.shape = std::move(shape);
    array.fortran_order = fortran;
    spend(elements.size());
    array.elements = elements;  // numpy copies the references at BUILD time
  }

  // ---- turning the object graph into Values ----
  // A reprod_log result is a dict (np.save wraps it in a 0-d object array) or an array. A
  // list, tuple or object array at the top is refused here, before the Values of what may be
  // a million nodes are built, rather than by the diff once they are.
  void check_result_root(const Obj& root) const {
    const Obj* top = &root;
    if (const auto* wrapper = find_as<ArrayObj>(root);
        wrapper != nullptr && wrapper->object && wrapper->shape.empty() && wrapper->elements.size() == 1) {
      top = wrapper->elements.front();
    }
    const auto* array = find_as<ArrayObj>(*top);
    const bool object_array = array != nullptr && array->object;
    if (!object_array && !std::holds_alternative<ListObj>(top->v) && !std::holds_alternative<TupleObj>(top->v)) return;
    const std::string what = object_array ? "object array of shape " + shape_text(array->shape) : kind_of(*top);
    error("not a reprod_log result: a " + what + " (expected a dict of arrays, or an array)");
  }

  Value::Ptr to_value_ptr(Obj* obj, std::size_t depth) {
    if (const auto cached = done_.find(obj); cached != done_.end()) return cached->second;
    if (depth > limits_.max_depth) error("nesting deeper than the limit");
    if (!in_progress_.insert(obj).second) error("the pickle contains a reference cycle");
    auto value = std::make_shared<const Value>(to_value(obj, depth));
    in_progress_.erase(obj);
    done_.emplace(obj, value);
    return value;
  }

  Value::List to_values(const std::vector<Obj*>& objs, std::size_t depth) {
    Value::List out;
    out.reserve(objs.size());
    for (Obj* obj : objs) out.push_back(to_value_ptr(obj, depth + 1));
    return out;
  }

  template <typename T>
  Value convert(Boxed<T>& x, std::size_t depth) {
    return convert(*x, depth);
  }

  Value to_value(Obj* obj, std::size_t depth = 0) {
    return std::visit([&](auto& x) { return convert(x, depth); }, obj->v);
  }

  Value convert(const NoneObj&, std::size_t) { return Value{Value::None{}}; }
  Value convert(bool x, std::size_t) { return Value{x}; }
  Value convert(std::int64_t x, std::size_t) { return Value{x}; }
  Value convert(double x, std::size_t) { return Value{x}; }
  // Each object is converted once (done_ keeps its Value), so its text can move.
  Value convert(std::string& x, std::size_t) { return Value{std::move(x)}; }
  Value convert(const SharedBytes& x, std::size_t) { return Value{x}; }
  Value convert(const ListObj& x, std::size_t depth) { return Value{to_values(x.items, depth)}; }
  Value convert(const TupleObj& x, std::size_t depth) { return Value{Value::Tuple{to_values(x.items, depth)}}; }
  Value convert(const ScalarObj& x, std::size_t) { return Value{Value::Scalar{x.value}}; }

  Value convert(const DictObj& x, std::size_t depth) {
    Value::Dict dict;
    dict.items.reserve(x.items.size());
    for (const auto& [key, item] : x.items) dict.items.emplace_back(key, to_value_ptr(item, depth + 1));
    return Value{std::move(dict)};
  }

  Value convert(const ArrayObj& x, std::size_t depth) {
    if (!x.built) error("an ndarray is never filled (no BUILD after _reconstruct)");
    if (!x.object) return Value{x.numeric};
    return Value{Value::ObjectArray{x.shape, x.fortran_order, to_values(x.elements, depth)}};
  }

  Value convert(const GlobalObj& x, std::size_t) { error("the result holds the callable " + x.spelled); }
  Value convert(const DtypeObj& x, std::size_t) { error("the result holds a bare numpy dtype '" + x.code + "'"); }

  SharedBytes bytes_;
  const std::string& name_;
  UnpickleLimits limits_;
  PickleRoot root_;
  std::size_t budget_;
  std::size_t spent_ = 0;
  std::size_t pos_ = 0;
  std::size_t op_pos_ = 0;
  std::size_t decoded_bytes_ = 0;
  std::deque<Obj> arena_;
  Obj none_{NoneObj{}};
  Obj true_{true};
  Obj false_{false};
  std::vector<Obj*> stack_;
  std::vector<std::size_t> marks_;
  std::unordered_map<std::uint64_t, Obj*> memo_;
  std::unordered_map<const Obj*, Value::Ptr> done_;
  std::unordered_set<const Obj*> in_progress_;
};

std::string value_kind(const Value::Data& data) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, Value::None>) return "None";
        if constexpr (std::is_same_v<T, bool>) return "bool";
        if constexpr (std::is_same_v<T, std::int64_t>) return "int";
        if constexpr (std::is_same_v<T, double>) return "float";
        if constexpr (std::is_same_v<T, std::string>) return "str";
        if constexpr (std::is_same_v<T, SharedBytes>) return "bytes";
        if constexpr (std::is_same_v<T, Value::List>) return "list";
        if constexpr (std::is_same_v<T, Value::Tuple>) return "tuple";
        if constexpr (std::is_same_v<T, Value::Dict>) return "dict";
        if constexpr (std::is_same_v<T, Array>) return x.describe();
        if constexpr (std::is_same_v<T, Value::Scalar>) return "numpy " + x.value.dtype.name() + " scalar";
        if constexpr (std::is_same_v<T, Value::ObjectArray>) return "object array of shape " + shape_text(x.shape);
      },
      data);
}

}  // namespace

// ---- Where a pickle ends -----------------------------------------------------------------

namespace {

// The operand that follows an opcode: `width` bytes, which for a counted operand are the
// little-endian length of the bytes after them. The opcodes the interpreter's step() takes,
// less GLOBAL (text lines) and STOP; nullopt for every opcode it refuses.
struct Operand {
  std::size_t width = 0;
  bool counted = false;
};

std::optional<Operand> operand_of(std::uint8_t op) {
  switch (op) {
    case 0x80:
    case 'q':
    case 'h':
    case 'K': return Operand{1};
    case 'M': return Operand{2};
    case 'r':
    case 'j':
    case 'J': return Operand{4};
    case 0x95:
    case 'G': return Operand{8};
    case 0x8c:
    case 'C':
    case 0x8a: return Operand{1, true};
    case 'X':
    case 'B':
    case 0x8b: return Operand{4, true};
    case 0x8d:
    case 0x8e:
    case 0x96: return Operand{8, true};
    case '(':
    case 0x93:
    case 'R':
    case 'b':
    case 0x94:
    case ')':
    case 't':
    case 0x85:
    case 0x86:
    case 0x87:
    case ']':
    case 'a':
    case 'e':
    case '}':
    case 's':
    case 'u':
    case 'N':
    case 0x88:
    case 0x89: return Operand{};
    default: return std::nullopt;
  }
}

constexpr std::size_t kIncomplete = 0;  // the opcode's bytes are not all there yet
constexpr std::size_t kRefusedOpcode = std::numeric_limits<std::size_t>::max();

// GLOBAL's two text lines, at most 256 characters each (as Unpickler::line reads them).
std::size_t global_extent(std::string_view rest) {
  constexpr std::size_t kLongestLine = 256;
  std::size_t end = 1;
  for (int line = 0; line < 2; ++line) {
    const std::size_t newline = rest.find('\n', end);
    if (newline == std::string_view::npos) return rest.size() - end > kLongestLine ? kRefusedOpcode : kIncomplete;
    if (newline - end > kLongestLine) return kRefusedOpcode;
    end = newline + 1;
  }
  return end;
}

// The little-endian operand of `width` bytes after the opcode that starts `rest` (all there).
std::uint64_t operand_value(std::string_view rest, std::size_t width) {
  std::uint64_t value = 0;
  for (std::size_t i = width; i-- > 0;) value = (value << 8) | static_cast<unsigned char>(rest[1 + i]);
  return value;
}

// The bytes of the opcode that starts `rest` with its operand, kIncomplete or kRefusedOpcode.
std::size_t opcode_extent(std::string_view rest) {
  const auto op = static_cast<std::uint8_t>(rest[0]);
  if (op == 'c') return global_extent(rest);
  const std::optional<Operand> operand = operand_of(op);
  if (!operand) return kRefusedOpcode;
  const std::size_t head = 1 + operand->width;
  if (rest.size() < head) return kIncomplete;
  if (!operand->counted) return head;
  const std::uint64_t length = operand_value(rest, operand->width);
  if (length > kRefusedOpcode - head) return kRefusedOpcode;  // longer than any input: the unpickler says truncated
  return rest.size() - head < length ? kIncomplete : head + static_cast<std::size_t>(length);
}

// Where the FRAME that starts `rest` (its 9 bytes all there) says its frame ends, as an
// offset from `start`; SIZE_MAX for a length no input can hold.
std::size_t frame_end(std::size_t start, std::string_view rest) {
  const std::uint64_t length = operand_value(rest, 8);
  const std::size_t after_header = start + 9;
  if (length > std::numeric_limits<std::size_t>::max() - after_header) return std::numeric_limits<std::size_t>::max();
  return after_header + static_cast<std::size_t>(length);
}

}  // namespace

PickleEndFinder::State PickleEndFinder::scan(std::string_view prefix) {
  while (pos_ < prefix.size()) {
    if (prefix[pos_] == '.') {  // STOP
      // The unpickler refuses a FRAME whose bytes are not all there, even when STOP comes
      // first: the pickle ends at the end of its longest frame when that is further.
      const std::size_t end = std::max(pos_ + 1, frame_end_);
      if (prefix.size() < end) return State::kMore;
      pos_ = end;
      return State::kEnd;
    }
    const std::size_t extent = opcode_extent(prefix.substr(pos_));
    if (extent == kRefusedOpcode) return State::kRefused;
    if (extent == kIncomplete) return State::kMore;
    if (static_cast<std::uint8_t>(prefix[pos_]) == 0x95)
      frame_end_ = std::max(frame_end_, frame_end(pos_, prefix.substr(pos_)));
    pos_ += extent;
  }
  return State::kMore;
}

Value::Key::Key(std::string name) : text(name), identity("s" + std::move(name)) {}

const Value* Value::Dict::find(const Key& key) const {
  for (const auto& [candidate, value] : items) {
    if (candidate.identity == key.identity) return value.get();
  }
  return nullptr;
}

std::string Value::describe() const { return value_kind(data); }

Result<Value> unpickle(const SharedBytes& bytes, const std::string& name, const UnpickleLimits& limits,
                       PickleRoot root) {
  return catch_parse_failure([&] { return Unpickler(bytes, name, limits, root).run(); });
}

}  // namespace tipc::align
