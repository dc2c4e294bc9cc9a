// Which calls of one plan are replayed from CUDA graphs (HandleOptions::replay), and the graphs.
// A graph holds the operand addresses and the workspace of the stream it was made for, so there
// is one per (stream, A, B, C). It is made on the second call that names them, not the first: a
// capture records the call and instantiates a graph, host work that one replay does not pay
// back, and a caller whose buffers change on every call must not pay it. The graph type is a parameter so that the policy is tested without
// a GPU (tests/cpu/test_replay_book.cpp).
#pragma once
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace gemmforge {

struct ReplayKey {
  const void* stream;
  const void* a;
  const void* b;
  const void* c;
  bool operator==(const ReplayKey&) const = default;
};

template <class Graph>  // movable, false when empty
class ReplayBook {
 public:
  // Operand sets remembered per plan. When one more comes, all are forgotten (their graphs freed
  // once they finish running).
  static constexpr size_t kCapacity = 16;
  // Graphs forgotten without ever being replayed before replays are switched off for the plan:
  // its operands change too often for a capture to pay back.
  static constexpr size_t kMaxUnreplayed = kCapacity;

  // The graph to launch for this call, or nullptr: the caller then launches the call directly.
  // On the second call with these operands, make() (returning an empty Graph if the call cannot be
  // captured; it may say why with switch_off first) makes the graph that serves this call and the
  // later ones.
  template <class Make>
  const Graph* graph_for(const ReplayKey& k, Make&& make) {
    if (!why_off_.empty()) return nullptr;
    for (size_t i = 0; i < entries_.size(); ++i) {
      if (!(entries_[i].key == k)) continue;
      if (!entries_[i].graph) {
        Graph made = make();  // which may switch replays off, and so forget every entry
        if (!made || off()) {
          switch_off("the call cannot be captured in a graph");
          return nullptr;
        }
        ++captures_;
        entries_[i].graph = std::move(made);
        return &entries_[i].graph;
      }
      ++entries_[i].replays;
      ++replays_;
      return &entries_[i].graph;
    }
    if (entries_.size() == kCapacity) forget_all();
    if (!why_off_.empty()) return nullptr;
    entries_.push_back(Entry{k, Graph{}, 0});
    return nullptr;
  }

  // No more replays for this plan (the first reason given is kept); the graphs made are freed.
  void switch_off(std::string why) {
    if (why_off_.empty()) why_off_ = why.empty() ? "switched off" : std::move(why);
    entries_.clear();
  }
  bool off() const { return !why_off_.empty(); }
  const std::string& why_off() const { return why_off_; }
  size_t captures() const { return captures_; }
  size_t replays() const { return replays_; }
  size_t remembered() const { return entries_.size(); }
  // Host time the captures took (the caller times them: the book makes no graph itself).
  void add_capture_time(double us) { capture_us_ += us; }
  double capture_time_us() const { return capture_us_; }

 private:
  struct Entry {
    ReplayKey key;
    Graph graph;
    size_t replays;
  };

  void forget_all() {
    for (const Entry& e : entries_)
      if (e.graph && e.replays == 0) ++unreplayed_;
    entries_.clear();
    if (unreplayed_ >= kMaxUnreplayed)
      switch_off(std::to_string(unreplayed_) + " graphs were made and never replayed: the operands change too often");
  }

  std::vector<Entry> entries_;
  std::string why_off_;
  size_t captures_ = 0, replays_ = 0, unreplayed_ = 0;
  double capture_us_ = 0;
};

}  // namespace gemmforge
