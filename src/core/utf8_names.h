#pragma once
// libarchive converts entry names between an archive's character set and the C library's
// current one (LC_CTYPE). A program that never calls setlocale has the "C" locale, whose
// character set is ASCII: a zip's UTF-8 names then cannot be read (the entry has no path
// at all) and a tar's non-ASCII names cannot be written, whatever LANG says. While a
// Utf8Names lives, the calling thread's LC_CTYPE is UTF-8, so names stay the UTF-8 bytes
// they are on disk. Only this thread changes (uselocale), and only LC_CTYPE: LC_NUMERIC
// and the others stay the process's, so number parsing is untouched. Header-only, so the
// fuzz targets' reader library needs no extra source.
#include <locale.h>

namespace tipc {

class Utf8Names {
 public:
  Utf8Names() : previous_(utf8_ctype() ? ::uselocale(utf8_ctype()) : nullptr) {}
  ~Utf8Names() {
    if (previous_ != nullptr) ::uselocale(previous_);
  }
  Utf8Names(const Utf8Names&) = delete;
  Utf8Names& operator=(const Utf8Names&) = delete;

 private:
  // The process's locale with a UTF-8 LC_CTYPE, made once and kept for the process's life;
  // nullptr where the C library has no UTF-8 locale (names then stay ASCII-only).
  static locale_t utf8_ctype() {
    static const locale_t locale = [] {
      for (const char* name : {"C.UTF-8", "C.utf8", "en_US.UTF-8"}) {
        const locale_t base = ::duplocale(LC_GLOBAL_LOCALE);
        if (base == nullptr) return locale_t{nullptr};
        if (const locale_t made = ::newlocale(LC_CTYPE_MASK, name, base)) return made;
        ::freelocale(base);  // newlocale leaves `base` alone when it fails
      }
      return locale_t{nullptr};
    }();
    return locale;
  }

  locale_t previous_;
};

}  // namespace tipc
