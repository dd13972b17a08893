// The evaluation (evaluate.hpp says what it reads and how). Each function's comment names its
// part (Evaluator._cap, _tries, ...). Floats are summed as Python's `sum` sums (left to right
// unless told otherwise), `x ** n` is std::pow, maxima are the first met and sorts stable:
// tests/golden/ai.json holds every value bit for bit (tests/test_ai_kernel.py).
#include "evaluate.hpp"

#include <algorithm>
#include <cmath>

namespace fk {

bool COMPENSATED_SUM = false;

namespace {

using u128 = unsigned __int128;

constexpr int COUNTED_DICE = 24;             // 6**24 face sequences still fit 64 bits
constexpr int COUNTS = COUNTED_DICE * 3 + 8;  // successes 0 to 3 a die

// A fraction's float, correctly rounded (float(Fraction(num, den)), 0 <= num <= den).
double ratio(u128 num, u128 den) {
    if (num == 0) return 0.0;
    if (num == den) return 1.0;
    const u128 exact = u128(1) << 53;
    if (num < exact && den < exact) return double(uint64_t(num)) / double(uint64_t(den));
    // long division, bit by bit: 53 bits of the quotient, a rounding bit, and what is left
    u128 r = num;
    uint64_t mant = 0;
    int bits = 0, pos = 0;
    while (bits < 54) {
        r <<= 1;
        --pos;
        int bit = r >= den;
        if (bit) r -= den;
        if (!mant && !bit) continue;
        mant = (mant << 1) | uint64_t(bit);
        ++bits;
    }
    bool round = mant & 1, sticky = r != 0;
    mant >>= 1;
    if (round && (sticky || (mant & 1))) ++mant;  // half to even
    return std::ldexp(double(mant), pos + 1);
}

// dice._counts: how many face sequences give each number of successes
int counts(const std::vector<std::array<int8_t, 6>>& values, const int* dice, int n, uint64_t* out) {
    int len = 1;
    out[0] = 1;
    for (int d = 0; d < n; ++d) {
        const auto& v = values[dice[d]];
        int top = 0;
        for (int f = 0; f < 6; ++f) top = std::max(top, int(v[f]));
        uint64_t next[COUNTS] = {};
        for (int s = 0; s < len; ++s)
            if (out[s])
                for (int f = 0; f < 6; ++f) next[s + v[f]] += out[s];
        len += top;
        std::copy(next, next + len, out);
    }
    return len;
}

inline int floordiv(int a, int b) {  // Python's //
    int q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

// A list of at most N things, on the stack: an evaluation allocates nothing. More than N is
// an error the agent answers by deciding by rule of thumb (funkoverse.ai.simple).
template <class T, int N>
struct Small {
    T items[N];
    int n = 0;
    Small() = default;
    Small(const Small& o) : n(o.n) { std::copy(o.items, o.items + o.n, items); }
    Small& operator=(const Small& o) {
        n = o.n;
        std::copy(o.items, o.items + o.n, items);
        return *this;
    }
    void push_back(const T& x) {
        if (n >= N) throw std::runtime_error("the evaluator's lists are too short for this position");
        items[n++] = x;
    }
    int size() const { return n; }
    bool empty() const { return n == 0; }
    void clear() { n = 0; }
    T* begin() { return items; }
    T* end() { return items + n; }
    const T* begin() const { return items; }
    const T* end() const { return items + n; }
    T& operator[](int i) { return items[i]; }
    const T& operator[](int i) const { return items[i]; }
    T& back() { return items[n - 1]; }
    const T& back() const { return items[n - 1]; }
};

struct PK {  // a character with actions: (piece, actions)
    int first, second;
};
struct Gain {  // a return or a point this round: (points, chance)
    int first;
    double second;
};
using Tries = Small<double, 48>;

double sum_of(const Tries& v) { return py_sum(v.begin(), v.end()); }

inline double py_min(double a, double b) { return b < a ? b : a; }  // min(a, b)
inline double py_max(double a, double b) { return b > a ? b : a; }  // max(a, b)

// evaluate._Turn
struct Turn {
    int side;
    Small<PK, 24> options;  // (piece, actions)
    bool new_round;
};

using Budget = Small<PK, 24>;
using Budgets = Small<Budget, 64>;
using Turns = Small<Turn, 16>;

// evaluate.Plan: (chance to win the game, score changes by side, chance to gain a point)
struct Plan {
    double win = 0.0;
    int nd = 0;
    int dside[2] = {0, 0};
    double dval[2] = {0.0, 0.0};
    double point_chance = 0.0;
};

// evaluate._View
struct View {
    const AiTables& T;
    const Rules& R;
    const State& S;
    int nsides;
    Small<int, MAX_PIECES> chars[MAX_SIDES];
    Small<int, MAX_PIECES> targets;
    int reach_side[MAX_PIECES], reach_value[MAX_PIECES];  // _reach, by piece (-1: not yet)
    Small<Gain, 64> race[MAX_SIDES];

    View(const AiTables& t, const State& s) : T(t), R(*t.rules), S(s), nsides(t.rules->nsides) {
        for (int i = 0; i < S.npieces; ++i) reach_side[i] = -1;
        for (int i = 0; i < S.npieces; ++i) {
            const Piece& p = S.pieces[i];
            if (knockable_kind(p.kind)) {
                if (p.side >= 0 && p.side < nsides) chars[p.side].push_back(i);
                if (p.square >= 0) targets.push_back(i);
            }
        }
    }

    int move(int a, int t) const { return T.move(a, t); }

    // _View.reach
    int reach(int pi, int side) {
        if (reach_side[pi] == side) return reach_value[pi];
        const Piece& p = S.pieces[pi];
        bool any = false;
        int best = 0;
        for (int t : targets) {
            if (S.pieces[t].side == side) continue;
            int m = move(p.square, S.pieces[t].square);
            if (!any || m < best) best = m;
            any = true;
        }
        if (reach_side[pi] < 0) {  // asked for one side only: the piece's turn's
            reach_side[pi] = side;
            reach_value[pi] = best;
        }
        return best;
    }
};

// evaluate._round_ending
bool round_ending(const State& S) {
    for (int i = 0; i < S.nstack; ++i)
        if (S.stack[i].type == F_ROUND_END) return true;
    return false;
}

// scenario.flag_returns_open
bool flag_returns_open(const Rules& R, const State& S, int side) {
    int ending = -1;
    for (int i = 0; i < S.nstack; ++i)
        if (S.stack[i].type == F_ROUND_END) {
            ending = i;
            break;
        }
    if (ending < 0 || S.stack[ending].stage == 0) return true;
    for (int i = 0; i < S.nstack; ++i) {
        const Frame& f = S.stack[i];
        if (f.type == F_CHOICE && f.side == side && R.steps[f.step].op == OP_FLAG_RETURN) return true;
    }
    return false;
}

// evaluate._actions_left
int actions_left(const State& S, int pi, bool ending) {
    if (ending) return 0;
    if (pi == S.active) return S.actions_left;
    return S.pieces[pi].exhausted ? 0 : ACTIONS_PER_TURN;
}

// evaluate._flags: each side's flag marker square, in the order the pieces first name a side
int flag_squares(const State& S, int* sides, int* squares) {
    int n = 0;
    for (int i = 0; i < S.npieces; ++i) {
        const Piece& p = S.pieces[i];
        if (p.role != R_FLAG || p.square < 0) continue;
        int k = 0;
        while (k < n && sides[k] != p.side) ++k;
        if (k == n) sides[n++] = p.side;
        squares[k] = p.square;
    }
    return n;
}

// evaluate._softmax
Values softmax(const double* scores, int n) {
    Values out;
    out.n = n;
    if (n == 2) {
        double d = scores[0] - scores[1];
        d = py_max(-30.0, py_min(30.0, d));
        double p = 1.0 / (1.0 + std::exp(-d));
        out[0] = p;
        out[1] = 1.0 - p;
        return out;
    }
    double top = scores[0];
    for (int i = 1; i < n; ++i) top = py_max(top, scores[i]);
    double exps[MAX_SIDES];
    PySum total;
    for (int i = 0; i < n; ++i) {
        exps[i] = std::exp(py_max(-30.0, scores[i] - top));
        total.add(exps[i]);
    }
    double t = total.value();
    for (int i = 0; i < n; ++i) out[i] = exps[i] / t;
    return out;
}

// evaluate._knock_chances
std::pair<double, double> knock_chances(double p, int challenges, bool standing) {
    if (challenges <= 0) return {0.0, 0.0};
    double q = 1.0 - p;
    if (!standing) return {1.0 - std::pow(q, double(challenges)), 0.0};
    double none = std::pow(q, double(challenges));
    double one = double(challenges) * p * std::pow(q, double(challenges - 1));
    return {py_max(0.0, 1.0 - none - one), one};
}

// evaluate._knock_odds
std::pair<double, double> knock_odds(const Tries& tries, bool standing) {
    bool same = true;
    for (double t : tries)
        if (!(t == tries[0])) same = false;
    if (same) return knock_chances(tries[0], int(tries.size()), standing);
    double none = 1.0;  // math.prod: 1 * (1 - t0) * ...
    bool first = true;
    for (double t : tries) {
        none = first ? 1.0 - t : none * (1.0 - t);
        first = false;
    }
    if (!standing) return {1.0 - none, 0.0};
    PySum one;
    for (double t : tries) one.add(t < 1.0 ? t * none / (1.0 - t) : 0.0);
    double o = one.value();
    return {py_max(0.0, 1.0 - none - o), o};
}

// The evaluator's functions on one position
struct Eval {
    Evaluator& E;
    const Weights& w;
    const AiTables& T;
    const Rules& R;
    const State& S;

    Eval(Evaluator& e, const AiTables& t, const State& s) : E(e), w(e.w), T(t), R(*t.rules), S(s) {}

    double p_win(int dice, int defense) { return E.p_win(T, dice, defense); }

    // Evaluator._cap
    int cap(int side, int target) {
        if (!w.beyond_target) return target;
        bool any = false;
        int rival = 0;
        for (int s = 0; s < R.nsides; ++s) {
            if (s == side) continue;
            int p = S.sides[s].points;
            if (!any || p > rival) rival = p;
            any = true;
        }
        if (!any) rival = 0;
        return std::max(target, rival + w.beyond_target);
    }

    // Evaluator._points_value
    double points_value(int side, double points) {
        if (points <= 0) return 0.0;
        int target = ai_target(T, S);
        if (target) {
            double have = S.sides[side].points;
            double c = cap(side, target);
            return w.points * (py_min(have + points, c) - py_min(have, c)) / target;
        }
        return w.raw_point * points;
    }

    // Evaluator._holdings
    double holdings(int side, double points, int target) {
        const SideState& s = S.sides[side];
        double value;
        if (target)
            value = w.points * py_min(points, double(cap(side, target))) / target;
        else
            value = w.raw_point * points;
        int tokens = 0;
        for (int c = 0; c < 4; ++c) tokens += s.pool[c];
        value += w.pool_token * tokens;
        for (int k = 0; k < TRACK; ++k)
            for (int i = 0; i < s.nslot[k]; ++i)
                if (R.track_items[s.slot[k][i]].kind == T_TOKEN) value += w.track_token;
        return value;
    }

    // Evaluator._knockout_effect
    std::pair<bool, int> knockout_effect(int by, int victim) { return E.knockout_effect(T, S, by, victim); }

    // Evaluator._card_strikes and _item_strikes (engine.ready_items): the strikes of a piece
    void strikes_of(int pi, Small<Strike, 16>& out) {
        const Piece& p = S.pieces[pi];
        out.clear();
        if (p.card >= 0 && p.card < int(T.card_strikes.size()))
            for (const Strike& own : T.card_strikes[p.card]) out.push_back(own);
        for (int k = 0; k < p.nitems; ++k) {
            int item = p.items[k];
            const ItemDef& def = R.items[item];
            if (def.cost == 0 && !def.basic_action) continue;
            if (S.sides[p.side].position(R.item_track_item[item])) continue;
            if (T.item_has_strike[item]) out.push_back(T.item_strike[item]);
        }
    }

    // Evaluator._tries
    Tries tries(int pi, int actions, int away, int target, bool standing) {
        const Piece& piece = S.pieces[pi];
        const Piece& t = S.pieces[target];
        int defense = t.defense > 0 ? t.defense : 0;
        double basic = p_win(BASIC_CHALLENGE_DICE, defense);
        Tries best;
        for (int i = 0; i < actions - away; ++i) best.push_back(basic);
        if (piece.side < 0 || piece.side >= R.nsides) return best;
        const SideState& side = S.sides[piece.side];
        Small<Strike, 16> strikes;
        strikes_of(pi, strikes);
        double best_sum = sum_of(best);
        for (const Strike& s : strikes) {
            int left = actions - std::max(0, away - s.reach);
            if (left < 1 || (s.color >= 0 && side.pool[s.color] <= 0)) continue;
            int dice = s.dice + (s.plus_defense ? defense : 0);
            dice += standing ? 0 : s.vs_down;
            Tries mine;
            mine.push_back(p_win(dice, defense));
            for (int i = 1; i < left; ++i) mine.push_back(basic);
            double mine_sum = sum_of(mine);
            if (mine_sum > best_sum) {
                best = mine;
                best_sum = mine_sum;
            }
        }
        return best;
    }

    // Evaluator._fresh
    void fresh(View& view, int side, const char* exhausted, Small<PK, 24>& out) {
        out.clear();
        for (int p : view.chars[side])
            if (!exhausted[p] && S.pieces[p].square >= 0) out.push_back({p, ACTIONS_PER_TURN});
    }

    // Evaluator._consume
    void consume(View& view, const Turn& turn, char* exhausted) {
        if (!turn.options.empty()) {
            if (turn.options.size() == 1) {
                exhausted[turn.options[0].first] = 1;
                return;
            }
            int best = turn.options[0].first, best_reach = 1000000000;
            for (const auto& o : turn.options) {
                int r = view.reach(o.first, turn.side);
                if (r < best_reach) {
                    best = o.first;
                    best_reach = r;
                }
            }
            exhausted[best] = 1;
            return;
        }
        for (int p : view.chars[turn.side])
            if (!exhausted[p]) {
                exhausted[p] = 1;
                return;
            }
    }

    // Evaluator._next_side
    int next_side(View& view, int current, const char* exhausted) {
        if (current < 0) return -1;
        int n = R.nsides;
        for (int k = 1; k <= n; ++k) {
            int side = (current + k) % n;
            for (int p : view.chars[side])
                if (!exhausted[p]) return side;
        }
        return -1;
    }

    // Evaluator._upcoming
    void upcoming(View& view, int groups, Turns& turns) {
        turns.clear();
        if (S.phase == P_FLIP || S.phase == P_PLACE || S.phase == P_OVER) return;
        int n = R.nsides;
        char exhausted[MAX_PIECES];
        std::fill(exhausted, exhausted + S.npieces, 0);
        for (int s = 0; s < n; ++s)
            for (int p : view.chars[s])
                if (S.pieces[p].exhausted) exhausted[p] = 1;
        int first = S.first_player >= 0 ? S.first_player : 0;
        int current = -1;
        bool refresh = round_ending(S);
        if (!refresh) {
            if (S.phase == P_ACT && S.active >= 0) {
                const Piece& piece = S.pieces[S.active];
                current = piece.side;
                exhausted[S.active] = 1;
                turns.push_back(Turn());
                Turn& t = turns.back();
                t.side = current;
                t.new_round = false;
                if (piece.square >= 0) t.options.push_back({S.active, S.actions_left});
            } else if (S.to_act >= 0) {
                current = S.to_act;
                turns.push_back(Turn());
                Turn& t = turns.back();
                t.side = current;
                t.new_round = false;
                fresh(view, current, exhausted, t.options);
                consume(view, t, exhausted);
            }
        }
        int rounds = 0;
        int runs = turns.empty() ? 0 : 1;
        while (int(turns.size()) < w.horizon_turns) {
            int side = refresh ? -1 : next_side(view, current, exhausted);
            bool starts = false;
            if (side < 0) {
                if (rounds) break;
                rounds += 1;
                refresh = false;
                std::fill(exhausted, exhausted + S.npieces, 0);
                first = (first + 1) % n;
                side = first;
                starts = true;
            }
            if (side != current) {
                runs += 1;
                if (runs > groups) break;
            }
            turns.push_back(Turn());
            Turn& t = turns.back();
            t.side = side;
            t.new_round = starts;
            fresh(view, side, exhausted, t.options);
            consume(view, t, exhausted);
            current = side;
        }
    }

    // Evaluator._budgets
    // (the budgets past the first 64 are never kept, so they are not made)
    static void budgets(const Turn* group, int ng, Budgets& out) {
        out.clear();
        for (const auto& o : group[0].options) {
            if (out.size() == 64) break;
            out.push_back(Budget());
            out.back().push_back(o);
        }
        Budgets nxt;
        for (int g = 1; g < ng; ++g) {
            const Turn& t = group[g];
            nxt.clear();
            Budget none;
            const Budget* from = out.empty() ? &none : out.begin();  // `budgets or [[]]`
            int nfrom = out.empty() ? 1 : out.size();
            for (int k = 0; k < nfrom && nxt.size() < 64; ++k) {
                const Budget& b = from[k];
                for (const auto& o : t.options) {
                    if (nxt.size() == 64) break;
                    int same = -1;
                    for (int i = 0; i < b.size(); ++i)
                        if (b[i].first == o.first) {
                            same = i;
                            break;
                        }
                    if (same >= 0) {
                        if (!t.new_round) continue;
                        nxt.push_back(b);
                        nxt.back()[same] = {o.first, b[same].second + o.second};
                    } else {
                        nxt.push_back(b);
                        nxt.back().push_back(o);
                    }
                }
            }
            if (!nxt.empty()) out = nxt;
        }
    }

    // consecutive turns of one side, merged: (first turn, turns) of each group
    static int merge(const Turns& turns, int* start, int* count) {
        int n = 0;
        for (int i = 0; i < turns.size(); ++i) {
            if (n && turns[start[n - 1]].side == turns[i].side) {
                count[n - 1] += 1;
            } else {
                start[n] = i;
                count[n++] = 1;
            }
        }
        return n;
    }

    // Evaluator._best_plan
    Plan best_plan(View& view, const Turn* group, int ng) {
        int side = group[0].side;
        Budgets bs;
        budgets(group, ng, bs);
        Plan best;
        if (bs.empty()) return best;
        double best_value = 0.0;
        double point_chance = 0.0;
        Small<std::array<int, 2>, 32> known_keys;
        Small<Tries, 32> known_tries;
        for (int d : view.targets) {
            const Piece& dp = S.pieces[d];
            if (dp.side == side || dp.defense < 0 || !(side != dp.side)) continue;
            int dsq = dp.square;
            int attacker = -1;
            double ko, kd;
            if (w.abilities) {
                Tries best_tries;
                double best_sum = 0.0;
                known_keys.clear();
                known_tries.clear();
                for (const Budget& b : bs) {
                    Tries tries_;
                    for (const auto& pk : b) {
                        int piece = pk.first, k = pk.second;
                        if (!S.pieces[piece].standing) k -= RALLY_ACTIONS;
                        int found = -1;
                        for (int i = 0; i < known_keys.size(); ++i)
                            if (known_keys[i][0] == piece && known_keys[i][1] == k) {
                                found = i;
                                break;
                            }
                        if (found < 0) {
                            int away = view.move(S.pieces[piece].square, dsq);
                            known_keys.push_back({piece, k});
                            known_tries.push_back(tries(piece, k, away, d, dp.standing));
                            found = known_keys.size() - 1;
                        }
                        const Tries& t = known_tries[found];
                        if (!t.empty()) {
                            for (double x : t) tries_.push_back(x);
                            if (attacker < 0) attacker = piece;
                        }
                    }
                    double s = sum_of(tries_);
                    if (s > best_sum) {
                        best_tries = tries_;
                        best_sum = s;
                    }
                }
                if (best_tries.empty() || attacker < 0) continue;
                auto kk = knock_odds(best_tries, dp.standing);
                ko = kk.first;
                kd = kk.second;
            } else {
                int challenges = 0;
                for (const Budget& b : bs) {
                    int c = 0;
                    for (const auto& pk : b) {
                        int piece = pk.first, k = pk.second;
                        if (!S.pieces[piece].standing) k -= RALLY_ACTIONS;
                        int cp = k - view.move(S.pieces[piece].square, dsq);
                        if (cp > 0) {
                            c += cp;
                            if (attacker < 0) attacker = piece;
                        }
                    }
                    challenges = std::max(challenges, c);
                }
                if (challenges <= 0 || attacker < 0) continue;
                double p = p_win(BASIC_CHALLENGE_DICE, dp.defense);
                auto kk = knock_chances(p, challenges, dp.standing);
                ko = kk.first;
                kd = kk.second;
            }
            auto effect = knockout_effect(attacker, d);
            bool wins = effect.first;
            int points = effect.second;
            double win = wins ? ko : 0.0;
            double loss = kd * w.knocked_down;
            double gain = 0.0;
            if (!wins) {
                loss += ko * (w.knocked_out - (dp.standing ? 0.0 : w.knocked_down));
                gain = ko * points_value(side, points);
            }
            double value = win * w.win + loss + gain;
            if (value > best_value) {
                best = Plan();
                best.win = win;
                best.nd = 1;
                best.dside[0] = dp.side;
                best.dval[0] = -loss;
                if (gain != 0.0) {
                    best.dside[1] = side;
                    best.dval[1] = gain;
                    best.nd = 2;
                }
                best_value = value;
            }
            if (points && !wins && ko > point_chance) point_chance = ko;
        }
        // stand up an ally (rally or assist)
        if (w.knocked_down > best_value) {
            for (int x : view.chars[side]) {
                const Piece& xp = S.pieces[x];
                if (xp.square < 0 || xp.standing) continue;
                bool any = false;
                for (const Budget& b : bs) {
                    for (const auto& pk : b) {
                        const Piece& piece = S.pieces[pk.first];
                        if ((pk.first == x && pk.second >= RALLY_ACTIONS) ||
                            (piece.standing && pk.second - view.move(piece.square, xp.square) >= 1)) {
                            any = true;
                            break;
                        }
                    }
                    if (any) break;
                }
                if (any) {
                    best_value = w.knocked_down;
                    best = Plan();
                    best.nd = 1;
                    best.dside[0] = side;
                    best.dval[0] = w.knocked_down;
                    break;
                }
            }
        }
        // interact with a point marker
        if (T.point_markers) {
            double value = points_value(side, 1);
            if (value > best_value || (w.round_race && value > 0.0)) {
                for (int m = 0; m < S.npieces; ++m) {
                    const Piece& mp = S.pieces[m];
                    if (mp.kind != K_MARKER || mp.square < 0 || mp.role != R_POINT) continue;
                    bool any = false;
                    for (const Budget& b : bs) {
                        for (const auto& pk : b) {
                            const Piece& piece = S.pieces[pk.first];
                            if (piece.standing && pk.second - view.move(piece.square, mp.square) >= 1) {
                                any = true;
                                break;
                            }
                        }
                        if (any) break;
                    }
                    if (any) {
                        point_chance = 1.0;
                        if (value > best_value) {
                            best_value = value;
                            best = Plan();
                            best.nd = 1;
                            best.dside[0] = side;
                            best.dval[0] = value;
                        }
                        break;
                    }
                }
            }
        }
        best.point_chance = point_chance;
        return best;
    }

    // Evaluator._plans
    int plans(View& view, int* sides, Plan* out) {
        int horizon = int(w.turn_weights.size());
        Turns turns;
        upcoming(view, horizon, turns);
        int start[16], count[16];
        int groups = merge(turns, start, count);
        int n = 0;
        bool this_round = true;
        const auto& trust = w.win_weights;
        for (int index = 0; index < groups && index < horizon; ++index) {
            const Turn* group = &turns[start[index]];
            Plan plan = best_plan(view, group, count[index]);
            this_round = this_round && !group[0].new_round;
            if (w.round_race && this_round && plan.point_chance > 0.0) {
                double chance = plan.point_chance * trust[std::min(index, int(trust.size()) - 1)];
                view.race[group[0].side].push_back({1, chance});
            }
            sides[n] = group[0].side;
            out[n++] = plan;
        }
        return n;
    }

    // Evaluator._survive
    double survive(View& view, int p, int spot, const Small<PK, MAX_PIECES>& rivals) {
        const Piece& pp = S.pieces[p];
        double survive = 1.0;
        if (pp.defense >= 0 && w.abilities) {
            for (const auto& rk : rivals) {
                int away = view.move(S.pieces[rk.first].square, spot);
                for (double t : tries(rk.first, rk.second, away, p, true)) survive *= 1.0 - t;
            }
        } else if (pp.defense >= 0) {
            double miss = 1.0 - p_win(BASIC_CHALLENGE_DICE, pp.defense);
            for (const auto& rk : rivals) {
                int tries_ = rk.second - view.move(S.pieces[rk.first].square, spot);
                if (tries_ > 0) survive *= std::pow(miss, double(tries_));
            }
        }
        return survive;
    }

    // Evaluator._flag_returns
    void flag_returns(View& view, double* scores) {
        int fs[MAX_PIECES], fq[MAX_PIECES];
        int nf = flag_squares(S, fs, fq);
        for (int side = 0; side < R.nsides; ++side) {
            int goals[MAX_PIECES], ng = 0;
            for (int k = 0; k < nf; ++k)
                if (fs[k] != side) goals[ng++] = fq[k];
            if (!ng || !flag_returns_open(R, S, side)) continue;
            double expected = 0.0;
            for (int p : view.chars[side]) {
                const Piece& pp = S.pieces[p];
                if (pp.square < 0 || !pp.standing) continue;
                int near = view.move(pp.square, goals[0]);
                for (int k = 1; k < ng; ++k) near = std::min(near, view.move(pp.square, goals[k]));
                if (near == 0)
                    expected += w.flag_return[0];
                else if (near <= 2 && !pp.exhausted)
                    expected += w.flag_return[near];
            }
            if (expected != 0.0) scores[side] += points_value(side, FLAG_POINTS * expected);
        }
    }

    // Evaluator._flag_rounds
    void flag_rounds(View& view, double* scores) {
        int fs[MAX_PIECES], fq[MAX_PIECES];
        int nf = flag_squares(S, fs, fq);
        if (!nf) return;
        double discount = w.flag_rounds[0], later = w.flag_rounds[1];
        bool ending = round_ending(S);
        Small<Gain, 64> discarded;
        for (int side = 0; side < R.nsides; ++side) {
            int goals[MAX_PIECES], ng = 0;
            for (int k = 0; k < nf; ++k)
                if (fs[k] != side) goals[ng++] = fq[k];
            if (!ng) continue;
            Small<PK, MAX_PIECES> rivals;
            bool acting = false;
            for (int r : view.targets) {
                const Piece& rp = S.pieces[r];
                if (rp.side != side && rp.standing) {
                    int k = actions_left(S, r, ending);
                    rivals.push_back({r, k});
                    if (k) acting = true;
                }
            }
            bool unopposed = w.sure_returns && !acting;
            bool settled = !flag_returns_open(R, S, side);
            double expected = 0.0, certain = 0.0;
            discarded.clear();
            auto& this_round = w.round_race ? view.race[side] : discarded;
            for (int p : view.chars[side]) {
                const Piece& pp = S.pieces[p];
                if (pp.square < 0) continue;
                int goal = goals[0];
                int near = view.move(pp.square, goal);
                for (int k = 1; k < ng; ++k) {
                    int m = view.move(pp.square, goals[k]);
                    if (m < near) {
                        near = m;
                        goal = goals[k];
                    }
                }
                int needed = near + (pp.standing ? 0 : RALLY_ACTIONS);
                int have = actions_left(S, p, ending);
                if (settled) {
                    int rounds = 1 - floordiv(-std::max(0, needed - ACTIONS_PER_TURN), ACTIONS_PER_TURN);
                    expected += later * std::pow(discount, double(rounds));
                } else if (needed > have) {
                    int rounds = -floordiv(-(needed - have), ACTIONS_PER_TURN);
                    expected += later * std::pow(discount, double(rounds));
                } else if (unopposed) {
                    certain += 1.0;
                    this_round.push_back({FLAG_POINTS, 1.0});
                } else {
                    double s = survive(view, p, near == 0 ? pp.square : goal, rivals);
                    expected += s;
                    this_round.push_back({FLAG_POINTS, s});
                }
            }
            if (expected != 0.0) scores[side] += w.flag_scale * points_value(side, FLAG_POINTS * expected);
            if (certain != 0.0) scores[side] += points_value(side, FLAG_POINTS * certain);
        }
    }

    // Evaluator._objectives
    void objectives(View& view, double* scores) {
        int ms[MAX_PIECES], mq[MAX_PIECES], nm = 0;
        for (int i = 0; i < S.npieces; ++i) {
            const Piece& p = S.pieces[i];
            if (p.kind == K_MARKER && p.square >= 0) {
                ms[nm] = p.side;
                mq[nm++] = p.square;
            }
        }
        if (!nm) return;
        for (int side = 0; side < R.nsides; ++side) {
            int goals[MAX_PIECES], ng = 0;
            for (int k = 0; k < nm; ++k)
                if (ms[k] != side) goals[ng++] = mq[k];
            int mine[MAX_PIECES], nmine = 0;
            for (int p : view.chars[side])
                if (S.pieces[p].square >= 0 && S.pieces[p].standing) mine[nmine++] = S.pieces[p].square;
            if (ng && nmine) {
                int near = view.move(mine[0], goals[0]);
                for (int a = 0; a < nmine; ++a)
                    for (int m = 0; m < ng; ++m) near = std::min(near, view.move(mine[a], goals[m]));
                scores[side] -= w.objective * std::min(near, 6);
                if (w.walk != 0.0) {
                    int far = 0;
                    for (int a = 0; a < nmine; ++a) {
                        int best = T.square_walk(mine[a], goals[0]);
                        for (int m = 1; m < ng; ++m) best = std::min(best, T.square_walk(mine[a], goals[m]));
                        far += std::min(12, best);
                    }
                    scores[side] -= w.walk * far;
                }
            }
        }
        if (T.flags) {
            if (w.flag_rounds[0] != 0.0)
                flag_rounds(view, scores);
            else if (w.flag_return[0] != 0.0)
                flag_returns(view, scores);
        }
    }

    // Evaluator._scores
    void scores(View& view, const Plan* plans, int nplans, double* scores) {
        int target = ai_target(T, S);
        double down = w.has_material ? w.material[0] : w.knocked_down;
        double out = w.has_material ? w.material[1] : w.knocked_out;
        for (int side = 0; side < R.nsides; ++side) {
            scores[side] = 0.0;
            scores[side] += holdings(side, S.sides[side].points, target);
            for (int p : view.chars[side]) {
                const Piece& pp = S.pieces[p];
                if (pp.square < 0) {
                    if (pp.placed) scores[side] -= out;
                } else if (!pp.standing) {
                    scores[side] -= down;
                }
            }
        }
        objectives(view, scores);
        int nt = int(w.turn_weights.size());
        for (int index = 0; index < nplans; ++index) {
            double weight = w.turn_weights[std::min(index, nt - 1)];
            const Plan& plan = plans[index];
            for (int k = 0; k < plan.nd; ++k)
                if (plan.dside[k] >= 0 && plan.dside[k] < R.nsides) scores[plan.dside[k]] += weight * plan.dval[k];
        }
    }

    // evaluate._round_race
    Values round_race(const View& view, const Values& base) {
        int target = ai_target(T, S);
        int n = R.nsides;
        if (!target) return base;
        bool reachable = false;
        for (int s = 0; s < n; ++s) {
            int gain = 0;
            for (const auto& e : view.race[s]) gain += e.first;
            if (S.sides[s].points + gain >= target) reachable = true;
        }
        if (!reachable) return base;
        using Points = std::array<int, MAX_SIDES>;
        std::vector<std::pair<Points, double>> spread, nxt;
        Points start{};
        for (int s = 0; s < n; ++s) start[s] = S.sides[s].points;
        spread.push_back({start, 1.0});
        auto add = [&](const Points& key, double x) {
            for (auto& e : nxt)
                if (e.first == key) {
                    e.second = e.second + x;
                    return;
                }
            nxt.push_back({key, 0.0 + x});
        };
        for (int i = 0; i < n; ++i) {
            for (const auto& e : view.race[i]) {
                double chance = py_min(e.second, 1.0);
                nxt.clear();
                for (const auto& sp : spread) {
                    if (chance > 0.0) {
                        Points up = sp.first;
                        up[i] += e.first;
                        add(up, sp.second * chance);
                    }
                    if (chance < 1.0) add(sp.first, sp.second * (1.0 - chance));
                }
                spread.swap(nxt);
            }
        }
        double wins[MAX_SIDES] = {0.0, 0.0, 0.0, 0.0};
        for (const auto& sp : spread) {
            int best = sp.first[0];
            for (int s = 1; s < n; ++s) best = std::max(best, sp.first[s]);
            int count = 0, at = -1;
            for (int s = 0; s < n; ++s)
                if (sp.first[s] == best) {
                    if (at < 0) at = s;
                    ++count;
                }
            if (best >= target && count == 1) wins[at] += sp.second;
        }
        double rest = 1.0 - py_sum(wins, wins + n);
        Values out;
        out.n = n;
        for (int s = 0; s < n; ++s) out[s] = wins[s] + rest * base[s];
        return out;
    }

    // Evaluator._race
    Values race(View& view) {
        int n = R.nsides;
        int np = S.npieces;
        double stand[MAX_PIECES], down[MAX_PIECES], out[MAX_PIECES];
        int pos[MAX_PIECES];
        std::fill(stand, stand + np, 0.0);
        std::fill(down, down + np, 0.0);
        std::fill(out, out + np, 0.0);
        std::fill(pos, pos + np, -1);
        for (int t : view.targets) {
            const Piece& tp = S.pieces[t];
            stand[t] = tp.standing ? 1.0 : 0.0;
            down[t] = tp.standing ? 0.0 : 1.0;
            out[t] = 0.0;
            pos[t] = tp.square;
        }
        double won[MAX_SIDES] = {0.0, 0.0, 0.0, 0.0}, gained[MAX_SIDES] = {0.0, 0.0, 0.0, 0.0};
        char taken[MAX_PIECES];
        std::fill(taken, taken + np, 0);
        Small<int, MAX_PIECES> markers;
        for (int m = 0; m < np; ++m) {
            const Piece& mp = S.pieces[m];
            if (mp.kind == K_MARKER && mp.square >= 0 && mp.role == R_POINT) markers.push_back(m);
        }
        Turns turns;
        upcoming(view, w.race_groups, turns);
        int start[16], count[16];
        int ngroups = merge(turns, start, count);
        double live = 1.0;
        Budgets all, bs;
        for (int j = 0; j < ngroups && j < w.race_groups; ++j) {
            if (live < 1e-4) break;
            const Turn* group = &turns[start[j]];
            int side = group[0].side;
            double e = std::pow(w.decay, double(j));
            budgets(group, count[j], all);
            bs.clear();
            for (const Budget& b : all) {
                bs.push_back(Budget());
                for (const auto& pk : b)
                    if (pos[pk.first] >= 0) bs.back().push_back(pk);
            }
            double best_value = 0.0;
            int kind = 0;  // 1 attack, 2 recover, 3 interact
            int b_did = -1, b_user = -1, b_square = -1;
            double b_ko = 0, b_kd = 0, b_qc = 0, b_e = 0;
            bool b_wins = false;
            Small<int, 32> b_attackers;
            for (int d : view.targets) {
                const Piece& dp = S.pieces[d];
                if (dp.side == side || dp.defense < 0 || !(side != dp.side)) continue;
                if (out[d] > 0.999) continue;
                int dsq = pos[d];
                int challenges = 0;
                Small<int, 32> attackers;
                for (const Budget& b : bs) {
                    int c = 0;
                    Small<int, 32> used;
                    for (const auto& pk : b) {
                        int aid = pk.first, k = pk.second;
                        if (out[aid] > 0.5) continue;
                        if (stand[aid] < 0.5) k -= RALLY_ACTIONS;
                        int ca = k - view.move(pos[aid], dsq);
                        if (ca > 0) {
                            c += ca;
                            used.push_back(aid);
                        }
                    }
                    if (c > challenges) {
                        challenges = c;
                        attackers = used;
                    }
                }
                if (challenges <= 0) continue;
                double pw = p_win(BASIC_CHALLENGE_DICE, dp.defense);
                double q = 1.0 - pw;
                double qc = std::pow(q, double(challenges));
                double one = double(challenges) * pw * std::pow(q, double(challenges - 1));
                double ko = e * (down[d] * (1.0 - qc) + stand[d] * (1.0 - qc - one));
                double kd = e * stand[d] * one;
                auto effect = knockout_effect(attackers[0], d);
                double value;
                if (effect.first)
                    value = ko * w.win;
                else
                    value = ko * (w.knocked_out + points_value(side, effect.second));
                value += kd * w.knocked_down;
                if (value > best_value) {
                    best_value = value;
                    kind = 1;
                    b_did = d;
                    b_ko = ko;
                    b_kd = kd;
                    b_qc = qc;
                    b_e = e;
                    b_wins = effect.first;
                    b_attackers = attackers;
                }
            }
            for (int x : view.chars[side]) {
                if (pos[x] < 0 || down[x] < 0.05) continue;
                double value = down[x] * w.recover;
                if (value <= best_value) continue;
                bool any = false;
                for (const Budget& b : bs) {
                    for (const auto& pk : b) {
                        int aid = pk.first, k = pk.second;
                        if ((aid == x && k >= RALLY_ACTIONS) ||
                            (aid != x && stand[aid] > 0.5 && k - view.move(pos[aid], pos[x]) >= 1)) {
                            any = true;
                            break;
                        }
                    }
                    if (any) break;
                }
                if (any) {
                    best_value = value;
                    kind = 2;
                    b_did = x;
                }
            }
            for (int m : markers) {
                if (taken[m]) continue;
                double value = e * points_value(side, 1);
                if (value <= best_value) break;
                int msq = S.pieces[m].square;
                int user = -1;
                for (const Budget& b : bs) {
                    for (const auto& pk : b)
                        if (stand[pk.first] > 0.5 && pk.second - view.move(pos[pk.first], msq) >= 1) {
                            user = pk.first;
                            break;
                        }
                    if (user >= 0) break;
                }
                if (user >= 0) {
                    best_value = value;
                    kind = 3;
                    b_did = m;
                    b_user = user;
                    b_e = e;
                    b_square = msq;
                }
            }
            if (!kind) continue;
            if (kind == 3) {
                taken[b_did] = 1;
                gained[side] += b_e;
                pos[b_user] = b_square;
            } else if (kind == 1) {
                int did = b_did;
                double hit = b_e * (1.0 - b_qc);
                double stand_d = stand[did], down_d = down[did];
                stand[did] = stand_d - stand_d * hit;
                down[did] = down_d - down_d * hit + b_kd;
                out[did] += b_ko;
                if (b_wins) {
                    won[side] += live * b_ko;
                    live -= live * b_ko;
                }
                for (int aid : b_attackers) pos[aid] = pos[did];
            } else {
                stand[b_did] += down[b_did];
                down[b_did] = 0.0;
            }
        }
        double sc[MAX_SIDES];
        int target = ai_target(T, S);
        for (int side = 0; side < n; ++side) {
            sc[side] = 0.0;
            sc[side] += holdings(side, S.sides[side].points + gained[side], target);
            for (int pc : view.chars[side]) {
                if (pos[pc] >= 0) {
                    sc[side] -= w.knocked_down * down[pc] + w.knocked_out * out[pc];
                } else if (S.pieces[pc].placed) {
                    sc[side] -= w.knocked_out;
                }
            }
        }
        objectives(view, sc);
        Values base = softmax(sc, n);
        Values res;
        res.n = n;
        for (int s = 0; s < n; ++s) res[s] = won[s] + live * base[s];
        return res;
    }

    // Evaluator.values, past the finished game and the chance node
    Values estimate() {
        View view(T, S);
        if (w.race) return race(view);
        int sides[16];
        Plan ps[16];
        int np = plans(view, sides, ps);
        int n = R.nsides;
        double sc[MAX_SIDES];
        scores(view, ps, np, sc);
        Values base = softmax(sc, n);
        if (w.round_race && T.flags) base = round_race(view, base);
        double left = 1.0;
        Values out;
        out.n = n;
        const auto& weights = w.win_weights;
        for (int index = 0; index < np; ++index) {
            double win = ps[index].win;
            if (win > 0) {
                double chance = weights[std::min(index, int(weights.size()) - 1)] * win;
                out[sides[index]] += left * chance;
                left *= 1.0 - chance;
            }
        }
        if (left == 1.0) return base;
        for (int s = 0; s < n; ++s) out[s] = out[s] + left * base[s];
        return out;
    }
};

}  // namespace

double win_chance(const AiTables& T, const int* attack, int na, const int* defense, int nd, bool lose) {
    uint64_t a[COUNTS], d[COUNTS];
    if (na > COUNTED_DICE || nd > COUNTED_DICE) throw std::runtime_error("too many dice to count");
    int la = counts(T.attack_values, attack, na, a);
    int ld = counts(T.defense_values, defense, nd, d);
    u128 below = 0, wins = 0, ta = 0, td = 0;
    for (int s = 0; s < la; ++s) {
        if (a[s]) wins += u128(a[s]) * below;
        if (s < ld) below += d[s];
        ta += a[s];
    }
    for (int s = 0; s < ld; ++s) td += d[s];
    u128 total = ta * td;
    return lose ? ratio(total - wins, total) : ratio(wins, total);
}

int chance_outcomes(const AiTables& T, const Rules& R, const State& S, int32_t* codes, double* probs) {
    if (S.phase == P_OVER) return 0;
    if (S.nstack && S.stack[S.nstack - 1].type == F_ROLL) {
        const Frame& f = S.stack[S.nstack - 1];
        int a[DICE_CAP], d[DICE_CAP];
        for (int i = 0; i < f.nattack; ++i) a[i] = f.attack[i];
        for (int i = 0; i < f.ndefense; ++i) d[i] = f.defense[i];
        double win = win_chance(T, a, f.nattack, d, f.ndefense, false);
        double lose = win_chance(T, a, f.nattack, d, f.ndefense, true);
        int n = 0;
        if (win > 0.0) {
            codes[n] = code(C_ROLL_OUTCOME, 1);
            probs[n++] = win;
        }
        if (lose > 0.0) {
            codes[n] = code(C_ROLL_OUTCOME, 0);
            probs[n++] = lose;
        }
        return n;
    }
    if (!S.nstack && S.phase == P_FLIP) {
        double share = 1.0 / double(R.nsides);  // float(Fraction(1, n))
        for (int s = 0; s < R.nsides; ++s) {
            codes[s] = code(C_FIRST_PLAYER, s);
            probs[s] = share;
        }
        return R.nsides;
    }
    return 0;
}

// evaluate._p_win and _p_win_with: `dice` standard dice against `defense`
double Evaluator::p_win(const AiTables& T, int dice, int defense) {
    dice = std::max(dice, 0);
    defense = std::max(defense, 0);
    if (dice < 64 && defense < 64) {
        if (T.pwin.empty()) T.pwin.assign(64 * 64, -1.0);
        double& hit = T.pwin[dice * 64 + defense];
        if (hit < 0.0) {
            int a[64], d[64];
            std::fill(a, a + dice, T.standard);
            std::fill(d, d + defense, T.standard);
            hit = win_chance(T, a, dice, d, defense);
        }
        return hit;
    }
    std::vector<int> a(size_t(dice), T.standard), d(size_t(defense), T.standard);
    return win_chance(T, a.data(), dice, d.data(), defense);
}

// Evaluator._knockout_effect: asked of the scenario's own knock-out rule on a copy, cached by
// all it reads (KoKey)
std::pair<bool, int> Evaluator::knockout_effect(const AiTables& T, const State& S, int by, int victim) {
    const Rules& R = *T.rules;
    KoKey key;
    key.tables = T.serial;
    key.by = T.piece_global[number_of(R, S, by)];
    key.victim = T.piece_global[number_of(R, S, victim)];
    key.n = R.nsides;
    for (int s = 0; s < MAX_SIDES; ++s) {
        key.points[s] = s < R.nsides ? S.sides[s].points : 0;
        key.leader[s] = s < R.nsides ? S.sides[s].leader : -1;
    }
    key.beside = 0;
    const Piece& v = S.pieces[victim];
    if (R.scenario.adjacent_knockout_points && v.square >= 0)
        for (int i = 0; i < S.npieces; ++i) {
            const Piece& p = S.pieces[i];
            if (p.side >= 0 && p.side != v.side && character_kind(p.kind) && p.square >= 0 &&
                R.board->adjacent_bits[p.square].test(v.square))
                key.beside |= 1u << p.side;
        }
    auto hit = ko_cache.find(key);
    if (hit != ko_cache.end()) return hit->second;
    State* probe = pool.take(S);
    int side = S.pieces[by].side;
    int before = probe->sides[side].points;
    scratch.clear();
    Game g{&R, probe, &scratch};
    scenario_knockout(g, by, victim);
    std::pair<bool, int> result{probe->winner == side, probe->sides[side].points - before};
    pool.give(probe);
    if (ko_cache.size() > 4096) ko_cache.clear();
    ko_cache.emplace(key, result);
    return result;
}

// Evaluator.values
Values Evaluator::values(const AiTables& T, const State& S) {
    const Rules& R = *T.rules;
    int n = R.nsides;
    Values out;
    out.n = n;
    if (S.winner >= 0 || S.phase == P_OVER) {
        for (int s = 0; s < n; ++s) out[s] = s == S.winner ? 1.0 : 0.0;
        return out;
    }
    if (decider(R, S) == -1) {
        int32_t codes[MAX_SIDES + 2];
        double probs[MAX_SIDES + 2];
        int k = chance_outcomes(T, R, S, codes, probs);
        for (int j = 0; j < k; ++j) {
            State* child = pool.take(S);
            scratch.clear();
            Game g{&R, child, &scratch};
            apply_unchecked(g, codes[j]);
            Values v = values(T, *child);
            pool.give(child);
            for (int i = 0; i < n; ++i) out[i] += probs[j] * v[i];
        }
        return out;
    }
    Eval e(*this, T, S);
    return e.estimate();
}

std::vector<double> Evaluator::scores(const AiTables& T, const State& S) {
    Eval e(*this, T, S);
    View view(T, S);
    int sides[16];
    Plan ps[16];
    int np = e.plans(view, sides, ps);
    double sc[MAX_SIDES];
    e.scores(view, ps, np, sc);
    return std::vector<double>(sc, sc + T.rules->nsides);
}

std::vector<double> Evaluator::tries(const AiTables& T, const State& S, int pi, int actions, int away, int target,
                                     bool standing) {
    Eval e(*this, T, S);
    Tries found = e.tries(pi, actions, away, target, standing);
    return std::vector<double>(found.begin(), found.end());
}

double Evaluator::points_value(const AiTables& T, const State& S, int side, double points) {
    Eval e(*this, T, S);
    return e.points_value(side, points);
}

// GameState.key(): every piece's (id, side, square, standing, markers, placed, statuses,
// items), each side's pool (colors with a count), cooldown track (a space of two or more
// things in sorted order), points, leader and returns, and the turn's marks and stack; not
// `turns`, a token's owner, exhausted (it follows the markers), defense or elusive.
void state_key(const Rules& R, const State& S, std::string& out) {
    // every field as 16 bits (32 for points, actions and the round), written to the stack
    // first and appended once
    uint16_t buf[MAX_PIECES * (6 + STATUS_CAP + ITEM_CAP) +
                 MAX_SIDES * (16 + TRACK * (1 + SLOT_CAP) + RETURN_CAP + 2 + PICK_CAP + 2 * GIFT_CAP) +
                 STACK_CAP * (8 + 2 * DICE_CAP + ASKED_CAP + TARGETS_CAP + RETURN_CAP) + 64];
    int at = 0;
    auto put = [&](int v) { buf[at++] = uint16_t(v); };
    auto put32 = [&](int32_t v) {
        buf[at++] = uint16_t(uint32_t(v) & 0xffff);
        buf[at++] = uint16_t(uint32_t(v) >> 16);
    };
    auto str = [&](int v) { return v < 0 ? -1 : v; };
    put(S.npieces);
    for (int i = 0; i < S.npieces; ++i) {
        const Piece& p = S.pieces[i];
        put(p.id);
        put(p.side);
        put(p.square);
        put((p.standing ? 1 : 0) | (p.placed ? 2 : 0) | (int(p.markers) << 2));
        put(p.nstat);
        for (int k = 0; k < p.nstat; ++k) put(p.statuses[k]);
        put(p.nitems);
        for (int k = 0; k < p.nitems; ++k) put(p.items[k]);
    }
    for (int s = 0; s < R.nsides; ++s) {
        const SideState& side = S.sides[s];
        for (int c = 0; c < 4; ++c) put(side.pool[c]);
        for (int k = 0; k < TRACK; ++k) {
            int16_t slot[SLOT_CAP];
            int n = side.nslot[k];
            std::copy(side.slot[k], side.slot[k] + n, slot);
            std::sort(slot, slot + n);
            put(n);
            for (int i = 0; i < n; ++i) put(slot[i]);
        }
        put32(side.points);
        put(str(side.leader));
        put(side.nreturned);
        for (int i = 0; i < side.nreturned; ++i) put(side.returned[i]);
        if (S.phase <= P_DRAFT) {  // picks belong to the draft: the teams hold them after it
            put(side.npicks);
            for (int i = 0; i < side.npicks; ++i) put(side.picks[i]);
            put(side.ngifts);
            for (int i = 0; i < side.ngifts; ++i) {
                put(side.gift_item[i]);
                put(side.gift_holder[i]);
            }
        }
    }
    put(S.first_player);
    put(S.to_act);
    put(S.phase);
    put(S.active);
    put32(S.actions_left);
    put32(S.round);
    put(S.winner);
    put(S.leaders_revealed);
    put(S.companion_used);
    put(S.acting);
    if (S.acting >= 0) {
        put(S.nacting);
        for (int i = 0; i < S.nacting; ++i) put(S.acting_statuses[i]);
    }
    put(S.nstack);
    for (int i = 0; i < S.nstack; ++i) {
        const Frame& f = S.stack[i];
        put(f.type);
        switch (f.type) {
            case F_STEPS:
                put(f.piece);
                put(f.source < 0 ? R.s_empty : f.source);
                put(f.seq);
                put(f.pc);
                put(str(f.target));
                put(f.started_standing);
                put(f.won < 0 ? -1 : f.won ? 1 : 0);
                put(f.ntargets);
                for (int k = 0; k < f.ntargets; ++k) put(f.targets[k]);
                put(str(f.chosen));
                break;
            case F_CHOICE:
                put(f.side);
                put(f.step);
                put(f.piece < 0 ? -1 : f.piece);
                put(f.optional);
                put(f.hook);
                break;
            case F_ROLL:
                put(f.piece);
                put(f.target);
                put(f.nattack);
                for (int k = 0; k < f.nattack; ++k) put(f.attack[k]);
                put(f.ndefense);
                for (int k = 0; k < f.ndefense; ++k) put(f.defense[k]);
                put(f.source);
                put(f.nasked);
                for (int k = 0; k < f.nasked; ++k) put(f.asked[k]);
                break;
            case F_RETURN:
                put(f.side);
                put(f.npieces);
                for (int k = 0; k < f.npieces; ++k) put(f.pieces[k]);
                break;
            case F_TURN_START:
                put(f.piece);
                break;
            default:
                put(f.stage);
        }
    }
    out.append(reinterpret_cast<const char*>(buf), size_t(at) * sizeof(uint16_t));
}

}  // namespace fk
