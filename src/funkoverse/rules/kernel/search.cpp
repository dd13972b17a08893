// The search of funkoverse.ai.expectimax, method by method (each comment names its part),
// generating and counting positions in one fixed order, so that the budget, the beam and the
// tables cut and reuse at the same places on any machine (tests/golden/ai.json).
#include "search.hpp"

#include <algorithm>
#include <numeric>

namespace fk {

namespace {

constexpr double SHALLOW_SHARE = 1.0 / 3.0;  // expectimax.SHALLOW_SHARE

// max(values, key=lambda v: v[seat]): the first of the best
const Values& first_max(const std::vector<Values>& values, int seat) {
    size_t best = 0;
    for (size_t i = 1; i < values.size(); ++i)
        if (values[i][seat] > values[best][seat]) best = i;
    return values[best];
}

// sorted(range(n), key=lambda i: -value[i]): stable, best first
std::vector<int> best_first(const std::vector<double>& value) {
    std::vector<int> order(value.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return -value[a] < -value[b]; });
    return order;
}

struct Held {  // children given back to the pool when the search of a node is done
    StatePool& pool;
    std::vector<State*> states;
    explicit Held(StatePool& p) : pool(p) {}
    ~Held() {
        for (State* s : states) pool.give(s);
    }
};

}  // namespace

Search::Search(SearchParams params, std::shared_ptr<Evaluator> evaluator)
    : P(std::move(params)), ev(std::move(evaluator)) {
    if (P.depth < 1 || P.widths.empty()) throw std::invalid_argument("depth and widths must be at least 1");
}

void Search::clear() {
    table_.clear();
    evals_.clear();
}

void Search::bind(const AiTables& tables) {
    T = &tables;
    R = tables.rules.get();
    if (rules_ != tables.rules) {  // another setup: its keys number other things
        clear();
        rules_ = tables.rules;
    }
}

// ExpectimaxAgent._child
State* Search::child(const State& from, int32_t code) {
    State* s = pool.take(from);
    events.clear();
    Game g{R, s, &events};
    apply_unchecked(g, code);
    positions += 1;
    return s;
}

std::string Search::key(const State& s) const {
    std::string k;
    k.reserve(512);
    state_key(*R, s, k);
    return k;
}

// ExpectimaxAgent._eval
Values Search::eval(const State& s, const std::string& key) {
    auto hit = evals_.find(key);
    if (hit != evals_.end()) return hit->second;
    Values v = ev->values(*T, s);
    evals_.emplace(key, v);
    return v;
}

// ExpectimaxAgent._over
bool Search::over() const {
    if (P.turn_budget < 0) return false;
    if (has_cap && double(positions) > cap) return true;
    return spent_ + positions > P.turn_budget;
}

// ExpectimaxAgent._narrowed
bool Search::narrowed() const { return has_wide && double(positions) > wide; }

// ExpectimaxAgent._width
int Search::width(int depth) const {
    int level = P.depth - depth;
    return P.widths[std::min(level, int(P.widths.size()) - 1)];
}

// ExpectimaxAgent._shared
std::vector<Values> Search::shared(const std::vector<int>& items, const std::function<Values(int)>& search,
                                   double share) {
    std::vector<Values> out;
    if (P.turn_budget < 0) {
        for (int i : items) out.push_back(search(i));
        return out;
    }
    double left = share * double(P.turn_budget - spent_ - positions);
    long long start = positions;
    struct Reset {
        Search& s;
        ~Reset() { s.has_cap = s.has_wide = false; }
    } reset{*this};
    for (size_t k = 0; k < items.size(); ++k) {
        long long used = positions - start;
        double part = std::max(0.0, (left - double(used)) / double(items.size() - k));
        has_cap = true;
        cap = double(positions) + part;
        if (P.has_narrow) {
            has_wide = true;
            wide = double(positions) + P.narrow * part;
        }
        out.push_back(search(items[k]));
    }
    return out;
}

// ExpectimaxAgent._value
Values Search::value(const State& s, int depth, Turn turn, long long origin, const std::string* known) {
    int decider_ = decider(*R, s);
    int n = R->nsides;
    if (decider_ == -2) {
        Values out;
        out.n = n;
        for (int i = 0; i < n; ++i) out[i] = i == s.winner ? 1.0 : 0.0;
        return out;
    }
    if (decider_ == -1) {
        Values total;
        total.n = n;
        int32_t codes[MAX_SIDES + 2];
        double probs[MAX_SIDES + 2];
        int k = chance_outcomes(*T, *R, s, codes, probs);
        for (int j = 0; j < k; ++j) {
            State* outcome = child(s, codes[j]);
            Values v = value(*outcome, depth, turn, origin, nullptr);
            pool.give(outcome);
            for (int i = 0; i < n; ++i) total[i] += probs[j] * v[i];
        }
        return total;
    }
    std::string own;
    if (Turn{s.turns, decider_} != turn) {  // a new turn begins: one turn less to search
        if (depth <= 1) {
            if (!known) {
                own = key(s);
                known = &own;
            }
            return eval(s, *known);
        }
        depth -= 1;
        turn = Turn{s.turns, decider_};
    }
    if (!known) {
        own = key(s);
        known = &own;
    }
    std::string entry;
    entry.reserve(known->size() + 12);
    int head[3] = {depth, turn.turns, turn.side};
    entry.append(reinterpret_cast<const char*>(head), sizeof head);
    entry.append(*known);
    auto hit = table_.find(entry);
    if (hit != table_.end()) return hit->second;
    if (over()) {  // past the turn's budget: valued as it stands
        cuts += 1;
        return eval(s, *known);
    }
    long long cuts_before = cuts;
    int seat = decider_;
    Held held(pool);
    {
        // legal() tries the pre-check's trial tokens on the state it lists, and takes them back
        scratch.clear();
        events.clear();
        Game g{R, const_cast<State*>(&s), &events};
        legal(g, scratch);
    }
    Codes codes = scratch;
    for (int32_t c : codes) held.states.push_back(child(s, c));
    Values best;
    if (depth == 1) {
        best = rest_of_turn(held.states, seat, turn, origin < 0 ? positions : origin);
    } else {
        std::vector<double> shallow;
        for (State* ch : held.states) shallow.push_back(value(*ch, 1, turn, -1, nullptr)[seat]);
        std::vector<int> order = best_first(shallow);
        int w = narrowed() ? 1 : width(depth);
        std::vector<Values> deep;
        for (int i = 0; i < int(order.size()) && i < w; ++i)
            deep.push_back(value(*held.states[order[i]], depth, turn, -1, nullptr));
        if (deep.empty()) throw std::runtime_error("max() arg is an empty sequence");
        best = first_max(deep, seat);
    }
    // a deeper value the budget cut short is not kept
    if (depth == 1 || cuts == cuts_before) table_[entry] = best;
    return best;
}

// ExpectimaxAgent._rest_of_turn
Values Search::rest_of_turn(std::vector<State*>& children, int seat, Turn turn, long long origin) {
    std::vector<Values> ended;
    struct Going {
        Values v;
        State* s;
        std::string key;
    };
    std::vector<Going> going;
    for (State* ch : children) {
        int d = decider(*R, *ch);
        std::string k = key(*ch);
        if (d == -2 || (d != -1 && Turn{ch->turns, d} != turn)) {
            ended.push_back(eval(*ch, k));
        } else {
            Values v = eval(*ch, k);
            going.push_back({v, ch, std::move(k)});
        }
    }
    int beam = P.beam;
    if (P.reply_beam >= 0 && turn != root) beam = P.reply_beam;  // a reply
    if (beam >= 0 && positions - origin > P.beam_positions) beam = 1;
    if (beam >= 0 && narrowed()) beam = 1;
    if (beam >= 0 && int(going.size()) > beam) {
        std::stable_sort(going.begin(), going.end(),
                         [&](const Going& a, const Going& b) { return -a.v[seat] < -b.v[seat]; });
        going.resize(size_t(beam));
    }
    for (const Going& g : going) ended.push_back(value(*g.s, 1, turn, origin, &g.key));
    if (ended.empty()) throw std::runtime_error("max() arg is an empty sequence");
    return first_max(ended, seat);
}

// ExpectimaxAgent._rank
std::vector<std::pair<int, double>> Search::rank(const AiTables& tables, const State& view,
                                                 const std::vector<int32_t>& codes, int seat, long long spent) {
    bind(tables);
    positions = 0;
    spent_ = spent;
    root = Turn{view.turns, seat};
    Held held(pool);
    for (int32_t c : codes) held.states.push_back(child(view, c));
    int n = int(codes.size());
    std::vector<int> first(n);
    std::iota(first.begin(), first.end(), 0);
    std::vector<std::string> keys;
    if (P.turn_budget >= 0) {
        std::vector<double> as_they_stand;
        for (int i = 0; i < n; ++i) {
            keys.push_back(key(*held.states[i]));
            as_they_stand.push_back(eval(*held.states[i], keys[i])[seat]);
        }
        first = best_first(as_they_stand);
    }
    double share = P.depth == 1 ? 1.0 : SHALLOW_SHARE;
    std::vector<Values> found = shared(
        first,
        [&](int i) { return value(*held.states[i], 1, root, 0, keys.empty() ? nullptr : &keys[i]); }, share);
    std::vector<double> shallow(n);
    for (int k = 0; k < n; ++k) shallow[first[k]] = found[k][seat];
    auto sorted_shallow = [&]() {
        std::vector<std::pair<int, double>> out;
        for (int i : best_first(shallow)) out.push_back({i, shallow[i]});
        return out;
    };
    if (P.depth == 1 || over()) return sorted_shallow();
    std::vector<int> order = best_first(shallow);
    std::vector<int> keep(order.begin(), order.begin() + std::min(n, width(P.depth)));
    long long cuts_before = cuts;
    found = shared(keep, [&](int i) { return value(*held.states[i], P.depth, root, -1, nullptr); }, 1.0);
    if (cuts != cuts_before) return sorted_shallow();  // the deeper search did not finish
    std::vector<double> deep_values;
    for (size_t k = 0; k < keep.size(); ++k) deep_values.push_back(found[k][seat]);
    std::vector<std::pair<int, double>> out;
    for (int k : best_first(deep_values)) out.push_back({keep[k], deep_values[k]});
    double floor = out.back().second;
    for (size_t j = keep.size(); j < order.size(); ++j) {
        double v = shallow[order[j]];
        out.push_back({order[j], floor < v ? floor : v});
    }
    return out;
}

// GreedyAgent.rank, one decision deep
std::vector<std::pair<int, double>> Search::rank_decision(const AiTables& tables, const State& view,
                                                          const std::vector<int32_t>& codes, int seat) {
    bind(tables);
    std::vector<double> scored;
    for (int32_t c : codes) {
        State* s = child(view, c);
        scored.push_back(eval(*s, key(*s))[seat]);
        pool.give(s);
    }
    std::vector<std::pair<int, double>> out;
    for (int i : best_first(scored)) out.push_back({i, scored[i]});
    return out;
}

}  // namespace fk
