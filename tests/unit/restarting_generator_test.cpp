// A generator that begins again (search/restarting_generator.h): every call goes to the current
// generator, the one before is dropped before the next is made, and what the dropped ones prepared
// and noted stays counted and said.
#include "search/restarting_generator.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace gs::search {
namespace {

// A generator named `name` that proposes one program, its name, and counts how many are alive.
class Named final : public Generator {
 public:
  Named(std::string name, u64 preparing, int* alive)
      : name_(std::move(name)), preparing_(preparing), alive_(alive) {
    ++*alive_;
  }
  ~Named() override { --*alive_; }
  GeneratorKind kind() const override { return GeneratorKind::Enumerate; }
  std::vector<Proposal> propose(u32, u64) override {
    Proposal p;
    p.source = name_;
    return {p};
  }
  void observe(std::span<const Proposal>, const pipeline::BatchResults&, i64 first_id) override {
    observed_ = first_id;
  }
  u64 evaluated_internally() const override { return 10 * preparing_; }
  u64 evaluated_preparing() const override { return preparing_; }
  std::vector<std::string> uses(const Proposal&) const override { return {name_}; }
  std::vector<std::string> notes() const override { return {name_ + "'s note"}; }
  i64 observed_ = -1;

 private:
  std::string name_;
  u64 preparing_;
  int* alive_;
};

class Again final : public RestartingGenerator {
 public:
  using RestartingGenerator::begin_again;
  using RestartingGenerator::current;
  using RestartingGenerator::say;
};

TEST(RestartingGenerator, HandsEveryCallToTheCurrentAndKeepsWhatTheDroppedOnesDid) {
  int alive = 0;
  Again g;
  g.begin_again("unused: ", [&] { return std::make_unique<Named>("first", 3, &alive); });
  EXPECT_EQ(g.propose(5, 0).at(0).source, "first");
  EXPECT_EQ(g.evaluated_internally(), 30u);
  EXPECT_EQ(g.evaluated_preparing(), 3u);
  EXPECT_EQ(g.notes(), std::vector<std::string>{"first's note"});

  g.say("began again");
  int alive_when_made = -1;
  g.begin_again("before: ", [&] {
    alive_when_made = alive;
    return std::make_unique<Named>("second", 4, &alive);
  });
  EXPECT_EQ(alive_when_made, 0) << "the first generator is dropped before the second is made";
  EXPECT_EQ(alive, 1);
  EXPECT_EQ(g.propose(5, 1).at(0).source, "second");
  EXPECT_EQ(g.kind(), GeneratorKind::Enumerate);
  EXPECT_EQ(g.uses(Proposal{}), std::vector<std::string>{"second"});
  EXPECT_EQ(g.evaluated_internally(), 40u);
  EXPECT_EQ(g.evaluated_preparing(), 3u + 4u);
  EXPECT_EQ(g.notes(), (std::vector<std::string>{"began again", "before: first's note", "second's note"}));
  g.observe({}, pipeline::BatchResults{}, 17);
  EXPECT_EQ(dynamic_cast<Named&>(g.current()).observed_, 17);
}

}  // namespace
}  // namespace gs::search
