// Problem vocabulary shared by the library, the evaluator and the CLI. Host-only: no CUDA here.
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gemmforge {

// Every error gemmforge reports to a user is a gemmforge::Error with a message that says what
// was wrong and, where there is one, what to do about it.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// Bad options, shapes or files: the user can fix the command line.
class UsageError : public Error {
 public:
  using Error::Error;
};
// The machine has no usable GPU (or driver).
class NoGpuError : public Error {
 public:
  using Error::Error;
};

// C[M×N] = A[M×K] · B with A and C row-major.
//   nn: B is K×N row-major (torch.matmul(a, b)).
//   tn: B is N×K row-major (x · Wᵀ, an nn.Linear weight).
enum class Layout { nn, tn };
// Accumulator precision, chosen explicitly and enforced by the correctness gate.
enum class Accum { f32, f16 };

struct Shape {
  int64_t M = 0, N = 0, K = 0;
  double flops() const { return 2.0 * double(M) * double(N) * double(K); }
  bool operator==(const Shape&) const = default;
  auto operator<=>(const Shape&) const = default;
};

std::string to_string(Layout);
std::string to_string(Accum);
std::string to_string(const Shape&);  // "MxNxK"
Layout parse_layout(std::string_view);  // throws Error on anything but nn|tn
Accum parse_accum(std::string_view);    // throws Error on anything but f32|f16
// The whole text as a decimal integer (no sign other than '-', no spaces); nullopt otherwise.
std::optional<int64_t> parse_integer(std::string_view);
// The whole text as a decimal number; nullopt otherwise.
std::optional<double> parse_real(std::string_view);

}  // namespace gemmforge
