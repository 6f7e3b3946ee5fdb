#include "report/log_curve.h"

#include <fmt/format.h>

#include <charconv>

namespace tipc::report {

std::string curve_name(std::string_view metric, std::optional<int> rank) {
  return rank ? fmt::format("{} (rank {})", metric, *rank) : std::string(metric);
}

CurveNameParts split_curve_name(std::string_view name) {
  static constexpr std::string_view kMarker = " (rank ";
  const std::size_t at = name.rfind(kMarker);
  if (at == std::string_view::npos || name.back() != ')') return {std::string(name), std::nullopt};
  const std::string_view digits = name.substr(at + kMarker.size(), name.size() - 1 - at - kMarker.size());
  int rank = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), rank);
  if (error != std::errc() || end != digits.data() + digits.size()) return {std::string(name), std::nullopt};
  return {std::string(name.substr(0, at)), rank};
}

}  // namespace tipc::report
