#include <gtest/gtest.h>

#include <map>

#include "core/shape.hpp"

namespace gemmforge {
namespace {

TEST(ShapeClass, FollowsTheEvaluatorDefinitions) {
  EXPECT_EQ(classify({64, 64, 64}), ShapeClass::tiny);
  EXPECT_EQ(classify({512, 512, 512}), ShapeClass::tiny);
  EXPECT_EQ(classify({512, 512, 4096}), ShapeClass::tall_k);
  EXPECT_EQ(classify({64, 128, 16384}), ShapeClass::tall_k);
  EXPECT_EQ(classify({4096, 4096, 256}), ShapeClass::small_k);
  EXPECT_EQ(classify({16384, 8192, 64}), ShapeClass::small_k);
  EXPECT_EQ(classify({64, 16384, 16384}), ShapeClass::skinny);
  EXPECT_EQ(classify({8192, 256, 4096}), ShapeClass::skinny);
  EXPECT_EQ(classify({4096, 4096, 4096}), ShapeClass::large);
  EXPECT_EQ(classify({1024, 2048, 4096}), ShapeClass::mid);
  EXPECT_EQ(classify({64, 64, 1024}), ShapeClass::mid);     // K between tiny and tall-K
  EXPECT_EQ(classify({64, 4096, 2048}), ShapeClass::mid);   // skinny needs K >= 4096 too
  EXPECT_EQ(classify({128, 128, 8192}), ShapeClass::tall_k);
}

TEST(ShapeClass, GridHasTheDocumentedClassSizes) {
  const auto grid = grid_shapes();
  ASSERT_EQ(grid.size(), 1000u);
  std::map<ShapeClass, int> n;
  for (const auto& s : grid) ++n[classify(s)];
  EXPECT_EQ(n[ShapeClass::large], 64);  // design.md: 64 large shapes
  EXPECT_EQ(n[ShapeClass::tiny], 64);   // {64..512}^3
  EXPECT_EQ(n[ShapeClass::tall_k], 64);
  EXPECT_EQ(n[ShapeClass::small_k], 48);
  EXPECT_EQ(n[ShapeClass::skinny], 2 * 3 * 4 * 4);
  int total = 0;
  for (auto& [c, k] : n) total += k;
  EXPECT_EQ(total, 1000);
}

TEST(ParseShape, AcceptsMxNxK) {
  EXPECT_EQ(parse_shape("4096x1024x77"), (Shape{4096, 1024, 77}));
  EXPECT_EQ(parse_shape("1X2*3"), (Shape{1, 2, 3}));
}

TEST(ParseShape, RejectsBadDimensionsWithAMessage) {
  for (const char* bad : {"0x64x64", "-1x64x64", "64x64", "64x64x64x64", "ax64x64", "64x64x", "64x64x1e3"}) {
    try {
      parse_shape(bad);
      FAIL() << bad << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
  }
}

TEST(ParseShapeList, NamesTheFileAndLineOfAnError) {
  try {
    parse_shape_list("# header\n64 64 64\n\n64 0 64\n", "shapes.txt");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("shapes.txt:4"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_shape_list("64 64\n", "f"), Error);
  EXPECT_THROW(parse_shape_list("# only comments\n", "f"), Error);
  EXPECT_EQ(parse_shape_list("1 2 3 # trailing comment\n", "f").size(), 1u);
}

TEST(ResolveShapes, CombinesFileAndSingleShapesWithoutDuplicates) {
  const auto v = resolve_shapes("", {"64x64x64", "64x64x64", "1x2x3"});
  ASSERT_EQ(v.size(), 2u);
  EXPECT_THROW(resolve_shapes("", {}), Error);
  EXPECT_THROW(resolve_shapes("/nonexistent/shapes.txt", {}), Error);
}

TEST(StratifiedSample, IsReproducibleAndCoversEveryClass) {
  const auto grid = grid_shapes();
  const auto a = stratified_sample(grid, 100, 7), b = stratified_sample(grid, 100, 7);
  EXPECT_EQ(a, b);
  ASSERT_EQ(a.size(), 100u);
  std::map<ShapeClass, int> n;
  for (const auto& s : a) ++n[classify(s)];
  for (ShapeClass c : kAllClasses) EXPECT_GE(n[c], 10) << to_string(c);
}

TEST(Layout, ParsesOnlyKnownNames) {
  EXPECT_EQ(parse_layout("tn"), Layout::tn);
  EXPECT_THROW(parse_layout("nt"), Error);
  EXPECT_THROW(parse_accum("bf16"), Error);
}

}  // namespace
}  // namespace gemmforge
