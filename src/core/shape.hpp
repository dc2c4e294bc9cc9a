// Shapes, shape classes and shape lists (files, the grid, "MxNxK" strings).
#pragma once
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "gemmforge/types.hpp"

namespace gemmforge {

// The classes the evaluator reports separately (design.md section 4); each shape is in exactly one.
enum class ShapeClass { tiny, tall_k, small_k, skinny, large, mid };
inline constexpr ShapeClass kAllClasses[] = {ShapeClass::tiny,   ShapeClass::tall_k,
                                             ShapeClass::small_k, ShapeClass::skinny,
                                             ShapeClass::large,  ShapeClass::mid};

ShapeClass classify(const Shape&);
std::string to_string(ShapeClass);  // tiny, tall-K, small-K, skinny, large, mid
ShapeClass parse_shape_class(std::string_view);

// "4096x4096x512" (x or X or *) → Shape; dims must be positive integers.
Shape parse_shape(std::string_view text);
// One "M N K" per line; '#' starts a comment. Errors name the file and line.
std::vector<Shape> parse_shape_list(std::string_view text, std::string_view source_name);
std::vector<Shape> read_shape_file(const std::filesystem::path&);

// Where the 1000-shape grid lives: $GEMMFORGE_SHAPES_DIR, next to the executable
// (../shapes, ../share/gemmforge/shapes), or the source tree this build came from.
std::filesystem::path find_data_file(std::string_view relative_path);
std::vector<Shape> grid_shapes();

// `--shapes grid|FILE` plus any `--shape MxNxK`; deduplicated, order kept.
std::vector<Shape> resolve_shapes(const std::string& shapes_arg,
                                  const std::vector<std::string>& shape_args);

// A reproducible sample of `count` shapes that takes shapes from every class in turn.
std::vector<Shape> stratified_sample(const std::vector<Shape>& shapes, size_t count, uint64_t seed);

}  // namespace gemmforge
