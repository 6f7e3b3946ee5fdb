#include "align/io/npy.h"

#include <fmt/format.h>

#include <optional>
#include <set>
#include <utility>

#include "align/io/parse_failure.h"

namespace tipc::align {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

tl::unexpected<Error> reject(const std::string& name, const std::string& message) {
  return fail(Error::at(name, 0, "", message));
}

std::size_t read_le(std::string_view bytes, std::size_t offset, std::size_t width) {
  std::size_t value = 0;
  for (std::size_t i = width; i-- > 0;) value = (value << 8) | static_cast<unsigned char>(bytes[offset + i]);
  return value;
}

// The values a header dict may hold; the parser records what it saw for each key.
struct HeaderFields {
  std::optional<std::string> descr;
  bool structured = false;
  std::optional<bool> fortran_order;
  std::optional<std::vector<std::size_t>> shape;
};

// Reads the Python dict literal numpy writes: string keys, and values that are strings,
// True/False, tuples of integers or (for structured dtypes) a list, which is skipped.
// Whitespace may appear anywhere; key order and quote style are free.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& name) : text_(text), name_(name) {}

  HeaderFields parse() {
    expect('{');
    HeaderFields fields;
    std::set<std::string> seen;
    while (!peek_is('}')) {
      const std::string key = parse_string();
      if (!seen.insert(key).second) fail_here("key '" + key + "' appears twice");
      expect(':');
      parse_value_for(key, fields);
      if (!peek_is('}')) expect(',');
    }
    expect('}');
    skip_space();
    if (pos_ != text_.size()) fail_here("unexpected text after the closing '}'");
    return fields;
  }

 private:
  [[noreturn]] void fail_here(const std::string& what) const {
    throw_parse_failure(Error::at(name_, 0, "", fmt::format("bad .npy header at character {}: {}", pos_, what)));
  }

  void skip_space() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  bool peek_is(char c) {
    skip_space();
    return pos_ < text_.size() && text_[pos_] == c;
  }

  void expect(char c) {
    if (!peek_is(c)) fail_here(fmt::format("expected '{}'", c));
    ++pos_;
  }

  std::string parse_string() {
    skip_space();
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) fail_here("expected a quoted string");
    const char quote = text_[pos_++];
    const std::size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos) fail_here("unterminated string");
    std::string value(text_.substr(pos_, end - pos_));
    if (value.find('\\') != std::string::npos) fail_here("escapes are not supported in header strings");
    pos_ = end + 1;
    return value;
  }

  bool parse_bool() {
    skip_space();
    for (const auto& [word, value] : {std::pair{"True", true}, std::pair{"False", false}}) {
      const std::string_view w(word);
      if (text_.substr(pos_, w.size()) == w) {
        pos_ += w.size();
        return value;
      }
    }
    fail_here("fortran_order must be True or False");
  }

  std::size_t parse_dimension() {
    skip_space();
    if (pos_ >= text_.size() || text_[pos_] < '0' || text_[pos_] > '9') {
      fail_here("a shape must be a tuple of non-negative integers");
    }
    std::size_t value = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      const auto digit = static_cast<std::size_t>(text_[pos_++] - '0');
      if (__builtin_mul_overflow(value, 10, &value) || __builtin_add_overflow(value, digit, &value)) {
        fail_here("shape dimension too large");
      }
    }
    if (pos_ < text_.size() && (text_[pos_] == 'L' || text_[pos_] == 'l')) ++pos_;  // Python 2 long suffix
    return value;
  }

  std::vector<std::size_t> parse_shape() {
    expect('(');
    std::vector<std::size_t> shape;
    while (!peek_is(')')) {
      shape.push_back(parse_dimension());
      if (peek_is(',')) {
        ++pos_;
      } else if (shape.size() == 1) {
        fail_here("a one-element shape needs a trailing comma, e.g. (5,)");  // (5) is an int, not a tuple
      } else if (!peek_is(')')) {
        fail_here("expected ',' or ')' in the shape");
      }
    }
    expect(')');
    return shape;
  }

  // Skips a structured dtype's list of field tuples, minding nested brackets and strings.
  void skip_bracketed() {
    int depth = 0;
    do {
      if (pos_ >= text_.size()) fail_here("unterminated list");
      const char c = text_[pos_];
      if (c == '\'' || c == '"') {
        parse_string();
        continue;
      }
      if (c == '[' || c == '(') ++depth;
      if (c == ']' || c == ')') --depth;
      ++pos_;
    } while (depth > 0);
  }

  void parse_value_for(const std::string& key, HeaderFields& fields) {
    if (key == "descr") {
      if (peek_is('[')) {
        skip_bracketed();
        fields.structured = true;
        fields.descr = "";
      } else {
        fields.descr = parse_string();
      }
    } else if (key == "fortran_order") {
      fields.fortran_order = parse_bool();
    } else if (key == "shape") {
      fields.shape = parse_shape();
    } else {
      fail_here("unexpected key '" + key + "' (only descr, fortran_order and shape are allowed)");
    }
  }

  std::string_view text_;
  const std::string& name_;
  std::size_t pos_ = 0;
};

struct Preamble {
  int major = 0;
  int minor = 0;
  std::size_t header_offset = 0;
  std::size_t header_len = 0;
};

Result<Preamble> read_preamble(std::string_view bytes, const std::string& name) {
  if (!kMagic.starts_with(bytes.substr(0, kMagic.size()))) {
    return reject(name, "not a .npy file: bad magic (expected \\x93NUMPY)");
  }
  if (bytes.size() < 8) return reject(name, fmt::format("truncated .npy file: only {} bytes", bytes.size()));
  Preamble p;
  p.major = static_cast<unsigned char>(bytes[6]);
  p.minor = static_cast<unsigned char>(bytes[7]);
  if (p.major < 1 || p.major > 3 || p.minor != 0) {
    return reject(name,
                  fmt::format("unsupported .npy format version {}.{} (1.0, 2.0 and 3.0 are known)", p.major, p.minor));
  }
  const std::size_t width = p.major == 1 ? 2 : 4;
  p.header_offset = 8 + width;
  if (bytes.size() < p.header_offset) return reject(name, "truncated .npy file: the header length is cut off");
  p.header_len = read_le(bytes, 8, width);
  if (p.header_len > kMaxNpyHeaderBytes) {
    return reject(
        name, fmt::format(".npy header of {} bytes is larger than the limit of {}", p.header_len, kMaxNpyHeaderBytes));
  }
  return p;
}

}  // namespace

Result<std::size_t> npy_header_size(std::string_view first_bytes, const std::string& name) {
  const Preamble p = TRY(read_preamble(first_bytes, name));
  return p.header_offset + p.header_len;
}

Result<NpyHeader> parse_npy_header(std::string_view bytes, const std::string& name) {
  const Preamble p = TRY(read_preamble(bytes, name));
  if (bytes.size() - p.header_offset < p.header_len) {
    return reject(name, fmt::format("truncated .npy file: the header needs {} bytes, only {} are there", p.header_len,
                                    bytes.size() - p.header_offset));
  }
  const HeaderFields fields =
      TRY(catch_parse_failure([&] { return HeaderParser(bytes.substr(p.header_offset, p.header_len), name).parse(); }));
  if (!fields.descr) return reject(name, "bad .npy header: the key 'descr' is missing");
  if (!fields.fortran_order) return reject(name, "bad .npy header: the key 'fortran_order' is missing");
  if (!fields.shape) return reject(name, "bad .npy header: the key 'shape' is missing");
  NpyHeader header;
  header.major_version = p.major;
  header.minor_version = p.minor;
  header.descr = *fields.descr;
  header.structured = fields.structured;
  header.fortran_order = *fields.fortran_order;
  header.shape = *fields.shape;
  header.payload_offset = p.header_offset + p.header_len;
  return header;
}

namespace {

Result<Dtype> supported_dtype(const NpyHeader& header, const std::string& name) {
  if (header.structured) return reject(name, "unsupported dtype: structured (a list of fields)");
  if (header.is_object()) {
    return reject(name, "the array holds pickled Python objects ('" + header.descr +
                            "'); read it with load_values, which unpickles it safely");
  }
  const auto dtype = dtype_from_descr(header.descr);
  if (!dtype)
    return reject(name, "unsupported dtype '" + header.descr + "' (numeric, bool and complex dtypes are supported)");
  return *dtype;
}

}  // namespace

bool NpyHeader::is_object() const {
  const std::string_view code = !descr.empty() && std::string_view("<>|=").find(descr[0]) != std::string_view::npos
                                    ? std::string_view(descr).substr(1)
                                    : std::string_view(descr);
  return !code.empty() && code[0] == 'O';
}

Result<NpyFile> split_npy(const SharedBytes& bytes, const std::string& name) {
  auto header = TRY(parse_npy_header(bytes.view(), name));
  const std::size_t offset = header.payload_offset;
  return NpyFile{std::move(header), bytes.slice(offset, bytes.size() - offset)};
}

Result<Array> array_from_npy(const NpyFile& file, const std::string& name) {
  const NpyHeader& header = file.header;
  const Dtype dtype = TRY(supported_dtype(header, name));
  const auto needed = byte_count(header.shape, dtype.item_size);
  if (!needed) return reject(name, "shape " + shape_text(header.shape) + " is too large");
  // numpy ignores bytes after the payload, so only a short payload is an error.
  if (file.payload.size() < *needed) {
    return reject(name, fmt::format("truncated .npy payload: {} {} needs {} bytes, the file has {}", dtype.descr(),
                                    shape_text(header.shape), *needed, file.payload.size()));
  }
  return Array{dtype, header.shape, header.fortran_order, file.payload.slice(0, *needed)};
}

Result<Array> parse_npy(const SharedBytes& bytes, const std::string& name) {
  auto file = TRY(split_npy(bytes, name));
  return array_from_npy(file, name);
}

Result<Array> parse_npy(std::string_view bytes, const std::string& name) {
  return parse_npy(SharedBytes::own(bytes), name);
}

Result<Array> read_npy(const std::string& path) {
  auto bytes = TRY(SharedBytes::map_file(path));
  return parse_npy(bytes, path);
}

}  // namespace tipc::align
