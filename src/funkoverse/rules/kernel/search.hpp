// The AI's turn-deep expectimax search (funkoverse.ai.expectimax says what it does).
//
// One `Search` belongs to one agent (ExpectimaxAgent, and so GreedyAgent and the levels):
// it keeps the tables of the turn being decided between that turn's decisions and counts
// the positions it generates, so that a budget in positions cuts the search at the same
// place on any machine (tests/golden/ai.json holds the counts).
#pragma once

#include <functional>

#include "evaluate.hpp"

namespace fk {

struct SearchParams {
    int depth = 2;
    std::vector<int> widths{5};
    long long turn_budget = -1;  // -1: None
    int beam = 4;                // -1: None
    int reply_beam = -1;         // -1: None
    bool has_narrow = false;
    double narrow = 0.5;
    long long beam_positions = 3000;  // expectimax.BEAM_POSITIONS, or the agent's own
};

class Search {
   public:
    Search(SearchParams params, std::shared_ptr<Evaluator> evaluator);

    // ExpectimaxAgent._rank: every choice (by its place in `codes`) with its value for
    // `seat`, best first; `spent` is what the turn's earlier decisions generated
    std::vector<std::pair<int, double>> rank(const AiTables& T, const State& view, const std::vector<int32_t>& codes,
                                             int seat, long long spent);
    // GreedyAgent.rank with depth="decision": each choice valued as it stands
    std::vector<std::pair<int, double>> rank_decision(const AiTables& T, const State& view,
                                                      const std::vector<int32_t>& codes, int seat);
    // the tables of a turn, emptied when the agent's next turn begins
    void clear();

    long long positions = 0;  // positions generated for the current decision
    long long cuts = 0;       // the times a search stopped at the budget
    size_t table_size() const { return table_.size(); }
    size_t evals_size() const { return evals_.size(); }

   private:
    struct Turn {
        int turns, side;
        bool operator==(const Turn& o) const { return turns == o.turns && side == o.side; }
        bool operator!=(const Turn& o) const { return !(*this == o); }
    };

    SearchParams P;
    std::shared_ptr<Evaluator> ev;
    const AiTables* T = nullptr;
    const Rules* R = nullptr;
    std::shared_ptr<Rules> rules_;  // the rules the tables' keys are numbered by
    Turn root{0, 0};
    long long spent_ = 0;
    bool has_cap = false, has_wide = false;
    double cap = 0.0, wide = 0.0;
    std::unordered_map<std::string, Values> table_, evals_;
    StatePool pool;
    Events events;
    Codes scratch;

    void bind(const AiTables& tables);
    State* child(const State& from, int32_t code);
    std::string key(const State& s) const;
    Values value(const State& s, int depth, Turn turn, long long origin, const std::string* key);
    Values rest_of_turn(std::vector<State*>& children, int seat, Turn turn, long long origin);
    std::vector<Values> shared(const std::vector<int>& items, const std::function<Values(int)>& search, double share);
    bool over() const;
    bool narrowed() const;
    int width(int depth) const;
    Values eval(const State& s, const std::string& key);
};

}  // namespace fk
