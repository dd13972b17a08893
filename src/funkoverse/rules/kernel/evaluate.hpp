// The AI's evaluation: a static estimate of every seat's chance to win a position, with the
// weights of funkoverse.ai.weights.
//
// It reads what any scenario shows (pieces, squares, standing, exhausted, pools, cooldown
// tracks, points and the scenario's target, whose turn it is, the turn order), knows the
// basic actions every character has (move 2, challenge an adjacent rival with 2 dice,
// assist, rally, interact) and asks the scenario's own knock-out rule what a knock-out is
// worth. Every estimate starts from a score per side in logit units: points and the share of
// the target they make, characters knocked down and out, ability tokens in the pool and on
// the cooldown track, how far the side's nearest character is from an objective. Then the
// next turns are looked at (the active character with the actions it has left, then the
// sides in turn order, across the end of a round), with the exact chance to win each
// challenge each turn can reach: to knock a rival down or out and to win the game by it, to
// stand an ally up, to take a point marker. The weights say how: each of the next turns'
// best plan weighed into the score (`race` off), or the next turns played out on the chances
// alone (`race`); in Flags, the returns at the end of a round counted round by round
// (`flag_rounds`) or by a flat share (`flag_return`), the threats read with the characters'
// challenge abilities and items (`abilities`), the end of a round read as the rules decide
// the game (`round_race`, `beyond_target`). docs/ai.md has the reasons and the figures.
//
// What it reads beside the position (the map's walk table, the dice's faces, the challenge
// abilities and items read from the cards) comes from funkoverse.ai.tables once per setup
// (`AiTables`).
#pragma once

#include <array>
#include <cmath>
#include <string>
#include <unordered_map>
#include <vector>

#include "kernel.hpp"

namespace fk {

// Python's builtin `sum` over floats: left to right before Python 3.12, and since 3.12 with
// Neumaier's compensation (bltinmodule.c, builtin_sum_impl): left to right unless set.
extern bool COMPENSATED_SUM;

struct PySum {
    double f = 0.0, c = 0.0;
    bool started = false;
    void add(double x) {
        if (!started) {  // 0 + x: the int start plus the first float
            f = 0.0 + x;
            started = true;
            return;
        }
        if (!COMPENSATED_SUM) {
            f += x;
            return;
        }
        double t = f + x;
        if (std::fabs(f) >= std::fabs(x))
            c += (f - t) + x;
        else
            c += (x - t) + f;
        f = t;
    }
    double value() const {
        if (!started) return 0.0;
        if (COMPENSATED_SUM && c != 0.0 && std::isfinite(c)) return f + c;
        return f;
    }
};

template <class It>
double py_sum(It first, It last) {
    PySum s;
    for (; first != last; ++first) s.add(*first);
    return s.value();
}

// Every seat's value, `n` of them used.
struct Values {
    std::array<double, MAX_SIDES> v{};
    int n = 0;
    double operator[](int i) const { return v[i]; }
    double& operator[](int i) { return v[i]; }
};

// States to search on, kept for reuse: a copy is one `copy_from`, never an allocation.
class StatePool {
   public:
    State* take(const State& from) {
        State* s;
        if (free_.empty()) {
            owned_.emplace_back(new State());
            s = owned_.back().get();
        } else {
            s = free_.back();
            free_.pop_back();
        }
        s->copy_from(from);
        return s;
    }
    void give(State* s) { free_.push_back(s); }

   private:
    std::vector<std::unique_ptr<State>> owned_;
    std::vector<State*> free_;
};

// funkoverse.ai.weights.Weights
struct Weights {
    double knocked_down = 0.7, knocked_out = 1.4, pool_token = 0.12, track_token = 0.04, points = 5.0,
           raw_point = 0.5, win = 6.0, objective = 0.08, walk = 0.0;
    std::vector<double> turn_weights{1.0, 0.5, 0.25}, win_weights{1.0, 0.55, 0.3};
    bool race = true;
    int race_groups = 6;
    double decay = 0.8, recover = 1.5;
    double flag_return[3] = {0.0, 0.0, 0.0};
    double flag_rounds[2] = {0.0, 0.0};
    bool abilities = false;
    bool has_material = false;
    double material[2] = {0.0, 0.0};
    double flag_scale = 1.0;
    bool sure_returns = false, round_race = false;
    int beyond_target = 0;
    int horizon_turns = 8;  // Evaluator.horizon_turns
};

// funkoverse.ai.tables.Strike: a challenge ability or item as the threats read it
struct Strike {
    int color;  // the token an ability costs (-1: an item)
    int dice;
    bool plus_defense;
    int vs_down;
    int reach;
};

// What the evaluator reads of one setup beside the rules' tables (funkoverse.ai.kernel).
struct AiTables {
    std::shared_ptr<Rules> rules;
    int n = 0;                     // squares
    std::vector<int32_t> moves;    // _Walks.moves, n x n
    std::vector<int32_t> squares;  // _Walks.squares, n x n
    std::vector<std::array<int8_t, 6>> attack_values, defense_values;  // per die: each face's successes
    int standard = 0;                                    // the die a basic challenge rolls
    std::vector<std::vector<Strike>> card_strikes;       // per card (Rules::cards)
    std::vector<int8_t> item_has_strike;                 // per item (Rules::items)
    std::vector<Strike> item_strike;
    bool flags = false, point_markers = false;
    int target = 0;                     // Scenario.points_to_win (0: none)
    uint64_t scenario = 0;              // the scenario object's identity
    uint64_t serial = 0;                // these tables, one number each (the knock-out cache)
    std::vector<int32_t> piece_global;  // each piece's id, numbered across setups
    mutable std::vector<double> pwin;   // _p_win_with's cache: standard dice, by (dice, defense)
    int move(int a, int t) const { return moves[size_t(a) * n + t]; }
    int square_walk(int a, int t) const { return squares[size_t(a) * n + t]; }
};

// Scenario.points_to_win as the evaluator reads it (0: none): the setup's, or a drafted
// game's, which follows the teams it chose
inline int ai_target(const AiTables& T, const State& S) {
    if (!T.rules->has_draft) return T.target;
    int target = points_to_win(*T.rules, S);
    return target == NIL ? 0 : target;
}

// dice.win_probability as a float: whole-number counts, then one correctly rounded division
// (float(Fraction)); `attack`/`defense` are die indexes.
double win_chance(const AiTables& T, const int* attack, int na, const int* defense, int nd, bool lose = false);

// The chance outcomes of a chance node (engine.chance_outcomes): codes with float(p).
int chance_outcomes(const AiTables& T, const Rules& R, const State& S, int32_t* codes, double* probs);

class Evaluator {
   public:
    Weights w;
    explicit Evaluator(Weights weights) : w(std::move(weights)) {}
    // every seat's estimated chance to win `S`
    Values values(const AiTables& T, const State& S);
    // what the estimate is made of, for the tests that pin it: every side's score in logit
    // units (material, points, resources, the next turns' plans), the chances to win of the
    // challenges piece `pi` can make against piece `target`, and what `points` more are
    // worth to `side`
    std::vector<double> scores(const AiTables& T, const State& S);
    std::vector<double> tries(const AiTables& T, const State& S, int pi, int actions, int away, int target,
                              bool standing);
    double points_value(const AiTables& T, const State& S, int side, double points);

    // everything a knock-out's effect reads: the setup (its scenario, target and seats), who
    // knocks out whom, every side's points and leader, and which sides stand beside the
    // victim (points for an adjacent knock-out)
    struct KoKey {
        uint64_t tables;
        int32_t by, victim;
        int n;
        int32_t points[MAX_SIDES];
        int32_t leader[MAX_SIDES];
        uint32_t beside;
        bool operator==(const KoKey& o) const {
            if (tables != o.tables || by != o.by || victim != o.victim || n != o.n || beside != o.beside)
                return false;
            for (int i = 0; i < n; ++i)
                if (points[i] != o.points[i] || leader[i] != o.leader[i]) return false;
            return true;
        }
    };
    struct KoHash {
        size_t operator()(const KoKey& k) const {
            uint64_t h = k.tables * 0x9E3779B97F4A7C15ull;
            h ^= uint64_t(k.beside) + 0x7F4A7C15 + (h << 6) + (h >> 2);
            for (int i = 0; i < k.n; ++i) h ^= uint64_t(uint32_t(k.leader[i])) + 0x85EBCA6B + (h << 6) + (h >> 2);
            h ^= uint64_t(uint32_t(k.by)) * 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
            h ^= uint64_t(uint32_t(k.victim)) * 0x165667B19E3779F9ull + (h << 6) + (h >> 2);
            for (int i = 0; i < k.n; ++i) h ^= uint64_t(uint32_t(k.points[i])) + 0x9E3779B9 + (h << 6) + (h >> 2);
            return size_t(h);
        }
    };
    // the knock-out cache: (wins the game, points), cleared past 4096 entries
    std::unordered_map<KoKey, std::pair<bool, int>, KoHash> ko_cache;
    Events scratch;
    StatePool pool;

    double p_win(const AiTables& T, int dice, int defense);
    std::pair<bool, int> knockout_effect(const AiTables& T, const State& S, int by, int victim);
};

// The position's key with exactly the equivalence of GameState.key(), appended to `out`.
void state_key(const Rules& R, const State& S, std::string& out);

}  // namespace fk
