// funkoverse.rules._kernel: the compiled kernel seen from Python. `Board` holds a map's
// tables, `Rules` everything static of one setup (built by funkoverse.rules.bridge from the
// Python setup), `Kernel` one position: its legal choices as integer codes, `apply`, copies,
// and the state and events as plain tuples for funkoverse.rules.bridge to read.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "kernel.hpp"
#include "rules.hpp"
#include "search.hpp"

namespace py = pybind11;
using namespace fk;

namespace {

template <class T>
T get(const py::dict& d, const char* key) {
    return d[key].cast<T>();
}

std::shared_ptr<Board> make_board(const py::dict& d) {
    auto b = std::make_shared<Board>();
    b->width = get<int>(d, "width");
    b->height = get<int>(d, "height");
    b->n = b->width * b->height;
    if (b->n > MAX_SQUARES) throw std::invalid_argument("the map is larger than the kernel's 256 squares");
    for (int s : get<std::vector<int>>(d, "blocked")) b->blocked.set(s);
    for (int s : get<std::vector<int>>(d, "obscured")) b->obscured.set(s);
    for (int s = 0; s < b->n; ++s) b->all.set(s);
    b->steps = get<std::vector<std::vector<int16_t>>>(d, "steps");
    b->adjacent = get<std::vector<std::vector<int16_t>>>(d, "adjacent");
    b->adjacent_bits.assign(b->n, Bits());
    for (int s = 0; s < b->n; ++s)
        for (int16_t t : b->adjacent[s]) b->adjacent_bits[s].set(t);
    b->dist.assign(size_t(b->n) * b->n, 0);
    for (int a = 0; a < b->n; ++a)
        for (int c = 0; c < b->n; ++c)
            b->dist[size_t(a) * b->n + c] = uint8_t(std::max(std::abs(a % b->width - c % b->width),
                                                             std::abs(a / b->width - c / b->width)));
    b->build_sight(get<std::vector<std::pair<int, int>>>(d, "walls"),
                   get<std::vector<std::pair<int, int>>>(d, "points"));
    return b;
}

// The sight tables, for the test that holds them equal to the Python board's
py::tuple sight_of(const Board& b, int origin) {
    std::vector<int> base;
    b.base[origin].each([&](int s) { base.push_back(s); });
    py::dict between, shadow;
    for (int t = 0; t < b.n; ++t)
        if (b.base[origin].test(t)) between[py::int_(t)] = py::cast(b.between[origin][t]);
    for (int s = 0; s < b.n; ++s)
        if (b.has_shadow[origin][s]) {
            std::vector<int> sh;
            b.shadow[origin][s].each([&](int t) { sh.push_back(t); });
            shadow[py::int_(s)] = py::cast(sh);
        }
    return py::make_tuple(base, between, shadow);
}

std::vector<std::vector<DraftToken>> draft_tokens(const py::handle& per_seat) {
    std::vector<std::vector<DraftToken>> out;
    for (auto seat : per_seat.cast<py::list>()) {
        std::vector<DraftToken> own;
        for (auto t : seat.cast<py::list>()) {
            auto r = t.cast<py::tuple>();
            own.push_back({r[0].cast<int16_t>(), r[1].cast<uint8_t>(), r[2].cast<uint8_t>(), r[3].cast<int8_t>()});
        }
        out.push_back(std::move(own));
    }
    return out;
}

// the draft's pool and the pieces its picks make (compiled.Tables._draft)
void read_draft(Rules& R, const py::dict& d) {
    DraftDef& D = R.draft;
    R.has_draft = true;
    D.secret = get<bool>(d, "secret");
    D.size = get<int>(d, "size");
    D.items = get<int>(d, "items");
    if (D.size > PICK_CAP || D.items > GIFT_CAP) throw std::invalid_argument("a draft larger than the kernel's");
    for (auto t : get<py::list>(d, "pool")) {
        auto r = t.cast<py::tuple>();
        DraftCard c;
        c.card = r[0].cast<int16_t>();
        c.id = r[1].cast<int16_t>();
        c.name = r[2].cast<int16_t>();
        c.basic = r[3].cast<bool>();
        c.dots = r[4].cast<std::vector<uint8_t>>();
        c.plain = r[5].cast<int16_t>();
        c.own = r[6].cast<std::vector<int16_t>>();
        c.tokens = draft_tokens(r[7]);
        D.pool.push_back(std::move(c));
    }
    D.first = get<std::vector<int16_t>>(d, "first");
    for (auto t : get<py::list>(d, "item_pool")) {
        auto r = t.cast<py::tuple>();
        D.item_pool.push_back({r[0].cast<int16_t>(), draft_tokens(r[1])});
    }
    D.item_tokens = get<std::vector<int16_t>>(d, "item_tokens");
}

std::shared_ptr<Rules> make_rules(const py::dict& d, std::shared_ptr<Board> board) {
    auto R = std::make_shared<Rules>();
    R->board = board;
    R->strings = get<std::vector<std::string>>(d, "strings");
    R->nsides = get<int>(d, "nsides");
    R->side_str = get<std::vector<int16_t>>(d, "side_str");
    R->side_rank = get<std::vector<int16_t>>(d, "side_rank");
    R->start_area = get<std::vector<std::vector<int16_t>>>(d, "start_area");
    R->ultimate = get<std::vector<bool>>(d, "ultimate");
    for (auto t : get<py::list>(d, "steps")) {
        auto s = t.cast<py::tuple>();
        StepDef st;
        st.op = s[0].cast<uint8_t>();
        st.squares = s[1].cast<int16_t>();
        st.range = s[2].cast<int16_t>();
        st.dice = s[3].cast<int16_t>();
        st.within = s[4].cast<int16_t>();
        st.amount = s[5].cast<int16_t>();
        st.extra_vs_knocked_down = s[6].cast<int16_t>();
        st.target = s[7].cast<uint8_t>();
        st.bonus = s[8].cast<uint8_t>();
        st.optional = s[9].cast<bool>();
        st.if_won = s[10].cast<bool>();
        st.only_point_marker = s[11].cast<bool>();
        st.token_role = s[12].cast<uint8_t>();
        st.card = s[13].cast<int16_t>();
        st.card_str = s[14].cast<int16_t>();
        st.group = s[15].cast<int16_t>();
        st.kinds = s[16].cast<uint16_t>();
        st.shift_item = s[17].cast<int16_t>();
        R->steps.push_back(st);
    }
    R->seqs = get<std::vector<std::vector<int16_t>>>(d, "seqs");
    for (auto t : get<py::list>(d, "abilities")) {
        auto a = t.cast<py::tuple>();
        AbilityDef ab;
        ab.id = a[0].cast<int16_t>();
        ab.name = a[1].cast<int16_t>();
        ab.key = a[2].cast<int16_t>();
        ab.color = a[3].cast<uint8_t>();
        ab.cost = a[4].cast<int>();
        ab.cost_vs_knocked_down = a[5].cast<int>();
        ab.challenge_action = a[6].cast<bool>();
        ab.while_knocked_down = a[7].cast<bool>();
        ab.while_knocked_out = a[8].cast<bool>();
        ab.declare_target = a[9].cast<bool>();
        ab.seq = a[10].cast<int16_t>();
        R->abilities.push_back(ab);
    }
    for (auto t : get<py::list>(d, "cards")) {
        auto c = t.cast<py::tuple>();
        CardDef cd;
        cd.id = c[0].cast<int16_t>();
        cd.name = c[1].cast<int16_t>();
        cd.defense = c[2].cast<int>();
        cd.basic = c[3].cast<bool>();
        cd.elusive = c[4].cast<bool>();
        cd.abilities = c[5].cast<std::vector<int16_t>>();
        cd.hooks = c[6].cast<std::vector<uint8_t>>();
        R->cards.push_back(cd);
    }
    for (auto t : get<py::list>(d, "statuses")) {
        auto c = t.cast<py::tuple>();
        StatusDef sd;
        sd.id = c[0].cast<int16_t>();
        sd.name = c[1].cast<int16_t>();
        sd.group = c[2].cast<int16_t>();
        sd.abilities = c[3].cast<std::vector<int16_t>>();
        sd.hooks = c[4].cast<std::vector<uint8_t>>();
        R->statuses.push_back(sd);
    }
    auto items = [](const py::list& l, std::vector<ItemDef>& out) {
        for (auto t : l) {
            auto c = t.cast<py::tuple>();
            ItemDef it;
            it.id = c[0].cast<int16_t>();
            it.name = c[1].cast<int16_t>();
            it.key = c[2].cast<int16_t>();
            it.cost = c[3].cast<int>();
            it.challenge_action = c[4].cast<bool>();
            it.basic_action = c[5].cast<bool>();
            it.seq = c[6].cast<int16_t>();
            out.push_back(it);
        }
    };
    items(get<py::list>(d, "items"), R->items);
    items(get<py::list>(d, "actions"), R->actions);
    for (auto t : get<py::list>(d, "companions")) {
        auto c = t.cast<py::tuple>();
        CompanionDef cd;
        cd.id = c[0].cast<int16_t>();
        cd.actions = c[1].cast<std::vector<int16_t>>();
        R->companions.push_back(cd);
    }
    for (auto t : get<py::list>(d, "bonuses")) {
        auto c = t.cast<py::tuple>();
        BonusDef bd;
        bd.id = c[0].cast<int16_t>();
        bd.name = c[1].cast<int16_t>();
        bd.points = c[2].cast<int>();
        R->bonuses.push_back(bd);
    }
    for (auto t : get<py::list>(d, "track_items")) {
        auto c = t.cast<py::tuple>();
        TrackItemDef ti;
        ti.kind = c[0].cast<uint8_t>();
        ti.ref = c[1].cast<int16_t>();
        ti.words = c[2].cast<int16_t>();
        ti.piece = c[3].cast<int16_t>();
        ti.color = c[4].cast<uint8_t>();
        R->track_items.push_back(ti);
    }
    R->dice_ids = get<std::vector<int16_t>>(d, "dice_ids");
    R->die_standard = get<int>(d, "die_standard");
    auto sc = get<py::tuple>(d, "scenario");
    R->scenario.point_markers = sc[0].cast<bool>();
    R->scenario.adjacent_knockout_points = sc[1].cast<bool>();
    R->scenario.first_knockout_wins = sc[2].cast<bool>();
    R->scenario.immediate_target = sc[3].cast<bool>();
    R->scenario.flags = sc[4].cast<bool>();
    R->scenario.leaders = sc[5].cast<bool>();
    R->scenario.control = sc[6].cast<bool>();
    R->scenario.knockout_points = sc[7].cast<int>();
    R->scenario.target_two = sc[8].cast<int>();
    R->scenario.target_three = sc[9].cast<int>();
    R->target_points = get<int>(d, "target_points");
    R->per_side = get<int>(d, "per_side");
    R->npieces = get<int>(d, "npieces");
    R->piece_id = get<std::vector<int16_t>>(d, "piece_id");
    R->piece_rank = get<std::vector<int16_t>>(d, "piece_rank");
    R->piece_of_string = get<std::vector<int16_t>>(d, "piece_of_string");
    R->companion_of_string = get<std::vector<int16_t>>(d, "companion_of_string");
    R->bonus_of_string = get<std::vector<int16_t>>(d, "bonus_of_string");
    R->status_of_string = get<std::vector<int16_t>>(d, "status_of_string");
    R->item_of_string = get<std::vector<int16_t>>(d, "item_of_string");
    R->point_square_of_string = get<std::vector<int16_t>>(d, "point_square_of_string");
    R->flag_square = get<std::vector<int16_t>>(d, "flag_square");
    R->leader_square = get<std::vector<int16_t>>(d, "leader_square");
    R->control_areas = get<std::vector<std::pair<int16_t, std::vector<int16_t>>>>(d, "control_areas");
    R->s_empty = get<int16_t>(d, "s_empty");
    auto effects = [](const py::handle& l) {
        std::vector<EffectDef> out;
        for (auto t : l.cast<py::list>()) {
            auto c = t.cast<py::tuple>();
            EffectDef e;
            e.op = c[0].cast<uint8_t>();
            e.die = c[1].cast<int16_t>();
            e.item = c[2].cast<int16_t>();
            e.space = c[3].cast<int>();
            e.by = c[4].cast<int>();
            e.count = c[5].cast<int>();
            e.name = c[6].cast<int16_t>();
            out.push_back(e);
        }
        return out;
    };
    for (auto t : get<py::list>(d, "traits")) {
        auto c = t.cast<py::tuple>();
        TraitDef td;
        td.name = c[0].cast<int16_t>();
        td.title = c[1].cast<int16_t>();
        td.card = c[2].cast<int16_t>();
        td.defense = c[3].cast<int>();
        td.defense_while = c[4].cast<int16_t>();
        td.reach = c[5].cast<int>();
        td.reach_for = c[6].cast<uint32_t>();
        td.links = c[7].cast<int>();
        td.links_within = c[8].cast<int>();
        td.rivals_discard = c[9].cast<int>();
        for (auto u : c[10].cast<py::list>()) {
            auto x = u.cast<py::tuple>();
            TriggerDef tr;
            tr.when = x[0].cast<uint32_t>();
            tr.who = x[1].cast<uint8_t>();
            tr.needs = x[2].cast<uint32_t>();
            tr.on_track = x[3].cast<int16_t>();
            tr.off_track = x[4].cast<int16_t>();
            tr.group = x[5].cast<int16_t>();
            tr.count = x[6].cast<int>();
            tr.optional = x[7].cast<bool>();
            tr.step = x[8].cast<int16_t>();
            tr.offer = x[9].cast<uint8_t>();
            tr.token = x[10].cast<uint8_t>();
            for (auto a : x[11].cast<py::list>()) {
                auto y = a.cast<py::tuple>();
                AnswerDef ad;
                ad.option = y[0].cast<int16_t>();
                ad.effects = effects(y[1]);
                tr.answers.push_back(ad);
            }
            tr.times = x[12].cast<int>();
            tr.effects = effects(x[13]);
            tr.otherwise = effects(x[14]);
            td.triggers.push_back(tr);
        }
        R->traits.push_back(td);
    }
    if (R->traits.size() >= H_SCENARIO) throw std::invalid_argument("too many traits in one game");
    for (auto t : get<py::list>(d, "options")) {
        auto c = t.cast<py::tuple>();
        R->options.emplace_back(c[0].cast<int16_t>(), c[1].cast<int16_t>());
    }
    R->color_str = get<std::vector<int16_t>>(d, "color_str");
    R->status_in_play_why = get<std::vector<int16_t>>(d, "status_in_play_why");
    R->group_every_why = get<std::vector<int16_t>>(d, "group_every_why");
    R->point_marker_why = get<std::vector<int16_t>>(d, "point_marker_why");
    auto lw = get<std::vector<int16_t>>(d, "leader_why");
    R->leader_why[0][0] = lw[0];
    R->leader_why[0][1] = lw[1];
    R->leader_why[1][0] = lw[2];
    R->leader_why[1][1] = lw[3];
    auto misc = get<std::vector<int16_t>>(d, "misc");
    if (misc.size() != S_MISC_COUNT) throw std::invalid_argument("misc strings: wrong count");
    for (int i = 0; i < S_MISC_COUNT; ++i) R->str_misc[i] = misc[i];
    R->role_name = get<std::vector<int16_t>>(d, "role_name");
    R->step_flag_return = get<int16_t>(d, "step_flag_return");
    R->status_step_of_group = get<std::vector<int16_t>>(d, "status_step_of_group");
    R->token_item = get<std::vector<int16_t>>(d, "token_item");
    R->item_track_item = get<std::vector<int16_t>>(d, "item_track_item");
    R->piece_track_item = get<std::vector<int16_t>>(d, "piece_track_item");
    if (!d["draft"].is_none()) read_draft(*R, get<py::dict>(d, "draft"));
    return R;
}

// --------------------------------------------------------------------------- codes outside

// Inside, a choice's code names a piece by its index in the state; outside (the codes
// funkoverse.rules.bridge reads), by its number among the game's pieces (Rules::piece_id).
// They are the same but in a drafted game, whose teams' pieces are made in the order picked.
enum PieceField : uint8_t { PF_A = 1, PF_B = 2, PF_B_PLUS_1 = 4 };

uint8_t piece_fields(int kind) {
    switch (kind) {
        case C_LEADER: case C_PLACE: case C_RETURN: case C_CHOOSE: case C_CHALLENGE: case C_ASSIST:
        case C_INTERACT: case C_COMPLETE_BONUS: case C_FLIP_CONTROL: case C_TARGET: case C_PUSH: case C_PULL:
        case C_CARRY: case C_PLACE_TOKEN: case C_FLAG_RETURN:
            return PF_A;
        case C_MINION_CHALLENGE:
            return PF_A | PF_B;
        case C_USE_ABILITY:
            return PF_B_PLUS_1;
        default:
            return 0;
    }
}

// `c` with each piece it names mapped by `f` (index to number, or back); -1 when one is not
// in play
template <class F>
int32_t map_pieces(int32_t c, F f) {
    int kind = code_kind(c), a = code_a(c), b = code_b(c);
    uint8_t fields = piece_fields(kind);
    if (fields & PF_A) a = f(a);
    if (fields & PF_B) b = f(b);
    if ((fields & PF_B_PLUS_1) && b) b = f(b - 1) + 1;
    if (a < 0 || b < 0) return -1;
    return code(kind, a, b);
}

int32_t outside(const Rules& R, const State& S, int32_t c) {
    if (!R.has_draft) return c;
    return map_pieces(c, [&](int i) { return number_of(R, S, i); });
}

int32_t inside(Game& g, int32_t c) {
    if (!g.R->has_draft) return c;
    return map_pieces(c, [&](int n) { return piece_at(g, n); });
}

// A position past one of the kernel's fixed limits (kernel.hpp): the Python engine plays on.
struct KernelLimit : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// What a mirror of a position last read of it (`Kernel::changes`): a copy of the state then.
struct Shadow {
    std::unique_ptr<State> state{new State()};
    bool valid = false;
};

class Kernel {
   public:
    std::shared_ptr<Rules> rules;
    std::unique_ptr<State> state;
    Events events;
    Codes scratch;

    explicit Kernel(std::shared_ptr<Rules> r) : rules(std::move(r)), state(new State()) {}

    Game game() { return Game{rules.get(), state.get(), &events}; }

    Kernel copy() const {
        Kernel k(rules);
        k.state->copy_from(*state);
        return k;
    }

    int decider_() const { return decider(*rules, *state); }

    py::list legal_() {
        scratch.clear();
        Game g = game();
        legal(g, scratch);
        return codes();
    }

    // `legal` for the authority: past one of the kernel's limits it leaves the position as
    // it was and raises KernelLimit (see apply_safe)
    py::list legal_safe_() {
        scratch.clear();
        Game g = game();
        std::unique_ptr<State> backup(new State());
        backup->copy_from(*state);
        try {
            legal(g, scratch);
        } catch (const std::runtime_error& e) {
            state->copy_from(*backup);
            throw KernelLimit(e.what());
        }
        return codes();
    }

    py::list codes() const {
        py::list out(scratch.size());
        for (size_t i = 0; i < scratch.size(); ++i)
            out[i] = py::reinterpret_steal<py::object>(PyLong_FromLong(outside(*rules, *state, scratch[i])));
        return out;
    }

    bool is_legal_(int32_t c) {
        Game g = game();
        c = inside(g, c);
        return c >= 0 && is_legal(g, c);
    }

    // engine.apply: a legal choice is done and True returned; anything else changes nothing
    bool apply_(int32_t c) {
        Game g = game();
        c = inside(g, c);
        if (c < 0 || !is_legal(g, c)) return false;
        events.clear();
        apply_unchecked(g, c);
        return true;
    }

    // `apply` for the authority: a position past one of the kernel's limits (a fan-made card
    // with more dice or frames than it holds) leaves the kernel as it was and raises
    // KernelLimit, so the game goes on in the Python engine
    bool apply_safe_(int32_t c) {
        Game g = game();
        std::unique_ptr<State> backup(new State());
        backup->copy_from(*state);
        try {
            c = inside(g, c);
            if (c < 0 || !is_legal(g, c)) return false;
            events.clear();
            apply_unchecked(g, c);
        } catch (const std::runtime_error& e) {
            state->copy_from(*backup);
            events.clear();
            throw KernelLimit(e.what());
        }
        return true;
    }

    void apply_unchecked_(int32_t c) {
        events.clear();
        Game g = game();
        apply_unchecked(g, inside(g, c));
    }

    // codes from outside (a search's choices) as the kernel's
    std::vector<int32_t> inside_codes(const std::vector<int32_t>& codes) const {
        if (!rules->has_draft) return codes;
        Game g{rules.get(), state.get(), nullptr};
        std::vector<int32_t> out;
        for (int32_t c : codes) out.push_back(inside(g, c));
        return out;
    }


    // the last choice's events as their structs' bytes, one after another: a log keeps them
    // as they are and Python reads them (`compiled.EVENT_ROW`) only when someone looks
    py::bytes events_() const {
        static_assert(std::is_trivially_copyable_v<Event>, "events are copied as bytes");
        return py::bytes(reinterpret_cast<const char*>(events.data()), events.size() * sizeof(Event));
    }

    // the challenge waiting for its dice: (challenger, target, attack dice, defense dice)
    py::object roll() const {
        const State& S = *state;
        if (!S.nstack || S.stack[S.nstack - 1].type != F_ROLL) return py::none();
        const Frame& f = S.stack[S.nstack - 1];
        std::vector<int> a(f.attack, f.attack + f.nattack), d(f.defense, f.defense + f.ndefense);
        return py::make_tuple(number_of(*rules, S, f.piece), number_of(*rules, S, f.target), a, d);
    }

    static py::tuple piece_row(const Piece& p) {
        return py::make_tuple(p.square, p.card, p.owner, p.ref, p.id, p.rank, p.side, p.kind, p.role, p.defense,
                              p.markers, p.needed, p.standing, p.exhausted, p.elusive, p.placed,
                              std::vector<int16_t>(p.statuses, p.statuses + p.nstat),
                              std::vector<int16_t>(p.items, p.items + p.nitems));
    }

    static py::tuple side_row(const SideState& side) {
        py::list slots;
        for (int k = 0; k < TRACK; ++k) slots.append(std::vector<int16_t>(side.slot[k], side.slot[k] + side.nslot[k]));
        py::list gifts;
        for (int k = 0; k < side.ngifts; ++k) gifts.append(py::make_tuple(side.gift_item[k], side.gift_holder[k]));
        return py::make_tuple(std::vector<int>(side.pool, side.pool + 4),
                              std::vector<int>(side.pool_order, side.pool_order + side.npool), slots, side.points,
                              side.leader, std::vector<int16_t>(side.returned, side.returned + side.nreturned),
                              std::vector<int>(side.picks, side.picks + side.npicks), gifts);
    }

    static py::tuple frame_row(const Frame& f) {
        return py::make_tuple(f.type, f.piece, f.source, f.seq, f.pc, f.target, f.started_standing, f.won,
                              std::vector<int16_t>(f.targets, f.targets + f.ntargets), f.chosen, f.side, f.step,
                              f.optional, f.hook, f.stage, std::vector<int>(f.attack, f.attack + f.nattack),
                              std::vector<int>(f.defense, f.defense + f.ndefense),
                              std::vector<int16_t>(f.asked, f.asked + f.nasked),
                              std::vector<int16_t>(f.pieces, f.pieces + f.npieces));
    }

    static py::tuple header_row(const State& S) {
        return py::make_tuple(S.first_player, S.to_act, S.winner, S.phase, S.active, S.actions_left, S.round,
                              S.turns, S.leaders_revealed, S.companion_used, S.acting,
                              std::vector<int16_t>(S.acting_statuses, S.acting_statuses + S.nacting));
    }

    static py::list stack_rows(const State& S) {
        py::list stack;
        for (int i = 0; i < S.nstack; ++i) stack.append(frame_row(S.stack[i]));
        return stack;
    }

    py::tuple dump() const {
        const State& S = *state;
        py::list pieces, sides;
        for (int i = 0; i < S.npieces; ++i) pieces.append(piece_row(S.pieces[i]));
        for (int s = 0; s < rules->nsides; ++s) sides.append(side_row(S.sides[s]));
        return py::make_tuple(header_row(S), pieces, sides, stack_rows(S));
    }

    // What changed since `seen` last looked (all of it the first time), and `seen` brought up
    // to now: (the header or None, [(index, piece row)], [(side, side row)], the stack or
    // None). A mirror of the position pays for what changed, not for the whole position. The
    // pieces, sides and frames are compared byte for byte: bytes no rule reads may differ too,
    // which only sends a row that did not need sending.
    py::tuple changes(Shadow& seen) const {
        const State& S = *state;
        State& T = *seen.state;
        const bool all = !seen.valid;
        bool header = all || S.first_player != T.first_player || S.to_act != T.to_act || S.winner != T.winner ||
                      S.phase != T.phase || S.active != T.active || S.actions_left != T.actions_left ||
                      S.round != T.round || S.turns != T.turns || S.leaders_revealed != T.leaders_revealed ||
                      S.companion_used != T.companion_used || S.acting != T.acting || S.nacting != T.nacting ||
                      std::memcmp(S.acting_statuses, T.acting_statuses, sizeof(int16_t) * S.nacting) != 0;
        py::list pieces, sides;
        for (int i = 0; i < S.npieces; ++i)
            if (all || i >= T.npieces || std::memcmp(&S.pieces[i], &T.pieces[i], sizeof(Piece)) != 0)
                pieces.append(py::make_tuple(i, piece_row(S.pieces[i])));
        for (int s = 0; s < rules->nsides; ++s)
            if (all || std::memcmp(&S.sides[s], &T.sides[s], sizeof(SideState)) != 0)
                sides.append(py::make_tuple(s, side_row(S.sides[s])));
        bool stack = all || S.nstack != T.nstack ||
                     std::memcmp(S.stack, T.stack, sizeof(Frame) * size_t(S.nstack)) != 0;
        T.copy_from(S);
        seen.valid = true;
        return py::make_tuple(header ? py::object(header_row(S)) : py::object(py::none()), pieces, sides,
                              stack ? py::object(stack_rows(S)) : py::object(py::none()));
    }

    void load(const py::tuple& data) {
        State& S = *state;
        S = State();
        auto header = data[0].cast<py::tuple>();
        S.first_player = header[0].cast<int8_t>();
        S.to_act = header[1].cast<int8_t>();
        S.winner = header[2].cast<int8_t>();
        S.phase = header[3].cast<uint8_t>();
        S.active = header[4].cast<int16_t>();
        S.actions_left = header[5].cast<int>();
        S.round = header[6].cast<int>();
        S.turns = header[7].cast<int>();
        S.leaders_revealed = header[8].cast<bool>();
        S.companion_used = header[9].cast<int16_t>();
        S.acting = header[10].cast<int16_t>();
        auto acting = header[11].cast<std::vector<int16_t>>();
        if (acting.size() > STATUS_CAP) throw std::invalid_argument("too many status cards");
        S.nacting = uint8_t(acting.size());
        std::copy(acting.begin(), acting.end(), S.acting_statuses);
        auto pieces = data[1].cast<py::list>();
        if (pieces.size() > size_t(MAX_PIECES)) throw std::invalid_argument("too many pieces");
        S.npieces = int(pieces.size());
        for (size_t i = 0; i < pieces.size(); ++i) {
            auto t = pieces[i].cast<py::tuple>();
            Piece& p = S.pieces[i];
            p.square = t[0].cast<int16_t>();
            p.card = t[1].cast<int16_t>();
            p.owner = t[2].cast<int16_t>();
            p.ref = t[3].cast<int16_t>();
            p.id = t[4].cast<int16_t>();
            p.rank = t[5].cast<int16_t>();
            p.side = t[6].cast<int8_t>();
            p.kind = t[7].cast<uint8_t>();
            p.role = t[8].cast<uint8_t>();
            p.defense = t[9].cast<int8_t>();
            p.markers = t[10].cast<uint8_t>();
            p.needed = t[11].cast<uint8_t>();
            p.standing = t[12].cast<bool>();
            p.exhausted = t[13].cast<bool>();
            p.elusive = t[14].cast<bool>();
            p.placed = t[15].cast<bool>();
            auto st = t[16].cast<std::vector<int16_t>>();
            auto it = t[17].cast<std::vector<int16_t>>();
            if (st.size() > STATUS_CAP || it.size() > ITEM_CAP) throw std::invalid_argument("too many cards on a piece");
            p.nstat = uint8_t(st.size());
            std::copy(st.begin(), st.end(), p.statuses);
            p.nitems = uint8_t(it.size());
            std::copy(it.begin(), it.end(), p.items);
        }
        auto sides = data[2].cast<py::list>();
        for (size_t s = 0; s < sides.size(); ++s) {
            auto t = sides[s].cast<py::tuple>();
            SideState& side = S.sides[s];
            auto pool = t[0].cast<std::vector<int>>();
            for (int c = 0; c < 4; ++c) side.pool[c] = uint8_t(pool[c]);
            auto order = t[1].cast<std::vector<int>>();
            side.npool = uint8_t(order.size());
            for (size_t k = 0; k < order.size(); ++k) side.pool_order[k] = uint8_t(order[k]);
            auto slots = t[2].cast<std::vector<std::vector<int16_t>>>();
            for (int k = 0; k < TRACK; ++k) {
                if (slots[k].size() > SLOT_CAP) throw std::invalid_argument("too much on a track space");
                side.nslot[k] = uint8_t(slots[k].size());
                std::copy(slots[k].begin(), slots[k].end(), side.slot[k]);
            }
            side.points = t[3].cast<int32_t>();
            side.leader = t[4].cast<int16_t>();
            auto ret = t[5].cast<std::vector<int16_t>>();
            if (ret.size() > RETURN_CAP) throw std::invalid_argument("too many returns");
            side.nreturned = uint8_t(ret.size());
            std::copy(ret.begin(), ret.end(), side.returned);
            auto picks = t[6].cast<std::vector<int>>();
            auto gifts = t[7].cast<std::vector<std::pair<int, int>>>();
            if (picks.size() > PICK_CAP || gifts.size() > GIFT_CAP) throw std::invalid_argument("a draft too large");
            side.npicks = uint8_t(picks.size());
            for (size_t k = 0; k < picks.size(); ++k) side.picks[k] = int8_t(picks[k]);
            side.ngifts = uint8_t(gifts.size());
            for (size_t k = 0; k < gifts.size(); ++k) {
                side.gift_item[k] = int16_t(gifts[k].first);
                side.gift_holder[k] = int8_t(gifts[k].second);
            }
        }
        auto stack = data[3].cast<py::list>();
        if (stack.size() > size_t(STACK_CAP)) throw std::invalid_argument("stack too deep");
        S.nstack = int(stack.size());
        for (size_t i = 0; i < stack.size(); ++i) {
            auto t = stack[i].cast<py::tuple>();
            Frame& f = S.stack[i];
            f = Frame();
            f.type = t[0].cast<uint8_t>();
            f.piece = t[1].cast<int16_t>();
            f.source = t[2].cast<int16_t>();
            f.seq = t[3].cast<int16_t>();
            f.pc = t[4].cast<uint8_t>();
            f.target = t[5].cast<int16_t>();
            f.started_standing = t[6].cast<bool>();
            f.won = t[7].cast<int8_t>();
            auto targets = t[8].cast<std::vector<int16_t>>();
            if (targets.size() > TARGETS_CAP) throw std::invalid_argument("too many targets");
            f.ntargets = uint8_t(targets.size());
            std::copy(targets.begin(), targets.end(), f.targets);
            f.chosen = t[9].cast<int16_t>();
            f.side = t[10].cast<int8_t>();
            f.step = t[11].cast<int16_t>();
            f.optional = t[12].cast<bool>();
            f.hook = t[13].cast<uint8_t>();
            f.stage = t[14].cast<uint8_t>();
            auto a = t[15].cast<std::vector<int>>();
            auto d = t[16].cast<std::vector<int>>();
            auto asked = t[17].cast<std::vector<int16_t>>();
            auto ps = t[18].cast<std::vector<int16_t>>();
            if (a.size() > DICE_CAP || d.size() > DICE_CAP || asked.size() > ASKED_CAP || ps.size() > RETURN_CAP)
                throw std::invalid_argument("a frame too large for the kernel");
            f.nattack = uint8_t(a.size());
            for (size_t k = 0; k < a.size(); ++k) f.attack[k] = uint8_t(a[k]);
            f.ndefense = uint8_t(d.size());
            for (size_t k = 0; k < d.size(); ++k) f.defense[k] = uint8_t(d[k]);
            f.nasked = uint8_t(asked.size());
            std::copy(asked.begin(), asked.end(), f.asked);
            f.npieces = uint8_t(ps.size());
            std::copy(ps.begin(), ps.end(), f.pieces);
        }
    }
};

// --------------------------------------------------------------------------- the search's tables

std::shared_ptr<AiTables> make_ai_tables(std::shared_ptr<Rules> rules, const py::dict& d) {
    auto T = std::make_shared<AiTables>();
    T->rules = std::move(rules);
    T->n = get<int>(d, "n");
    T->moves = get<std::vector<int32_t>>(d, "moves");
    T->squares = get<std::vector<int32_t>>(d, "squares");
    if (T->n != T->rules->board->n || T->moves.size() != size_t(T->n) * T->n || T->squares.size() != T->moves.size())
        throw std::invalid_argument("the walk table does not fit the map");
    for (auto side : {"attack_values", "defense_values"}) {
        auto& out = std::string(side) == "attack_values" ? T->attack_values : T->defense_values;
        for (const auto& faces : get<std::vector<std::vector<int>>>(d, side)) {
            if (faces.size() != 6) throw std::invalid_argument("a die has six faces");
            std::array<int8_t, 6> v{};
            for (int f = 0; f < 6; ++f) v[f] = int8_t(faces[f]);
            out.push_back(v);
        }
    }
    T->standard = get<int>(d, "standard");
    auto strike = [](const py::handle& h) {
        auto t = h.cast<py::tuple>();
        Strike s;
        s.color = t[0].cast<int>();
        s.dice = t[1].cast<int>();
        s.plus_defense = t[2].cast<bool>();
        s.vs_down = t[3].cast<int>();
        s.reach = t[4].cast<int>();
        return s;
    };
    for (auto card : get<py::list>(d, "card_strikes")) {
        std::vector<Strike> own;
        for (auto s : card.cast<py::list>()) own.push_back(strike(s));
        T->card_strikes.push_back(std::move(own));
    }
    for (auto item : get<py::list>(d, "item_strikes")) {
        T->item_has_strike.push_back(!item.is_none());
        T->item_strike.push_back(item.is_none() ? Strike() : strike(item));
    }
    if (T->item_strike.size() != T->rules->items.size()) throw std::invalid_argument("one strike a setup's item");
    T->flags = get<bool>(d, "flags");
    T->point_markers = get<bool>(d, "point_markers");
    T->target = get<int>(d, "target");
    T->scenario = get<uint64_t>(d, "scenario");
    static uint64_t made = 0;  // each setup's tables their own number, never used again
    T->serial = ++made;
    T->piece_global = get<std::vector<int32_t>>(d, "piece_global");
    if (T->piece_global.size() != size_t(T->rules->npieces)) throw std::invalid_argument("one id a piece");
    return T;
}

Weights make_weights(const py::dict& d) {
    Weights w;
    w.knocked_down = get<double>(d, "knocked_down");
    w.knocked_out = get<double>(d, "knocked_out");
    w.pool_token = get<double>(d, "pool_token");
    w.track_token = get<double>(d, "track_token");
    w.points = get<double>(d, "points");
    w.raw_point = get<double>(d, "raw_point");
    w.win = get<double>(d, "win");
    w.objective = get<double>(d, "objective");
    w.walk = get<double>(d, "walk");
    w.turn_weights = get<std::vector<double>>(d, "turn_weights");
    w.win_weights = get<std::vector<double>>(d, "win_weights");
    if (w.turn_weights.empty() || w.win_weights.empty()) throw std::invalid_argument("empty turn weights");
    w.race = get<bool>(d, "race");
    w.race_groups = get<int>(d, "race_groups");
    w.decay = get<double>(d, "decay");
    w.recover = get<double>(d, "recover");
    auto fr = get<std::vector<double>>(d, "flag_return");
    auto fd = get<std::vector<double>>(d, "flag_rounds");
    if (fr.size() != 3 || fd.size() != 2) throw std::invalid_argument("flag_return has 3 shares, flag_rounds 2");
    std::copy(fr.begin(), fr.end(), w.flag_return);
    std::copy(fd.begin(), fd.end(), w.flag_rounds);
    w.abilities = get<bool>(d, "abilities");
    if (!d["material"].is_none()) {
        auto m = get<std::vector<double>>(d, "material");
        if (m.size() != 2) throw std::invalid_argument("material has two weights");
        w.has_material = true;
        w.material[0] = m[0];
        w.material[1] = m[1];
    }
    w.flag_scale = get<double>(d, "flag_scale");
    w.sure_returns = get<bool>(d, "sure_returns");
    w.round_race = get<bool>(d, "round_race");
    w.beyond_target = get<int>(d, "beyond_target");
    w.horizon_turns = get<int>(d, "horizon_turns");
    return w;
}

SearchParams make_params(const py::dict& d) {
    SearchParams p;
    p.depth = get<int>(d, "depth");
    p.widths = get<std::vector<int>>(d, "widths");
    p.turn_budget = d["turn_budget"].is_none() ? -1 : get<long long>(d, "turn_budget");
    p.beam = d["beam"].is_none() ? -1 : get<int>(d, "beam");
    p.reply_beam = d["reply_beam"].is_none() ? -1 : get<int>(d, "reply_beam");
    p.has_narrow = !d["narrow"].is_none();
    if (p.has_narrow) p.narrow = get<double>(d, "narrow");
    p.beam_positions = get<long long>(d, "beam_positions");
    if (p.beam < -1 || p.reply_beam < -1) throw std::invalid_argument("a beam is None or at least 0");
    return p;
}

// a search's ranking: (index of the choice in the codes it was given, value), best first
py::list ranked(const std::vector<std::pair<int, double>>& r) {
    py::list out;
    for (const auto& e : r) out.append(py::make_tuple(e.first, e.second));
    return out;
}

void same_rules(const AiTables& t, const Kernel& k) {
    if (t.rules != k.rules) throw std::invalid_argument("the search's tables are another setup's");
}

// the place in the position of the piece of a number (Tables.piece_ids)
int state_piece(const Kernel& k, int number) {
    for (int i = 0; i < k.state->npieces; ++i)
        if (number_of(*k.rules, *k.state, i) == number) return i;
    throw std::invalid_argument("no such piece in the position");
}

}  // namespace

PYBIND11_MODULE(_kernel, m) {
    m.doc() = "The compiled rules kernel (see funkoverse.rules.bridge).";
    m.def("enums", []() {
        py::dict d;
        d["choices"] = int(C_KINDS);
        d["events"] = int(E_KINDS);
        d["ops"] = int(OP_COUNT);
        d["misc"] = int(S_MISC_COUNT);
        d["pieces"] = MAX_PIECES;
        d["slot"] = SLOT_CAP;
        d["targets"] = TARGETS_CAP;
        d["returns"] = RETURN_CAP;
        d["picks"] = PICK_CAP;
        d["gifts"] = GIFT_CAP;
        d["event_bytes"] = int(sizeof(Event));
        return d;
    }, "How many kinds of choices, events, words and strings the kernel numbers, and how "
       "many pieces, things on a track space, targets, returns, picks and gifts it holds.");
    py::register_exception<KernelLimit>(m, "KernelLimit");
    py::class_<Board, std::shared_ptr<Board>>(m, "Board")
        .def(py::init(&make_board))
        .def("sight", &sight_of)
        .def_readonly("n", &Board::n);
    py::class_<Rules, std::shared_ptr<Rules>>(m, "Rules").def(py::init(&make_rules));
    // the names the kernel was built with (schema.hpp), for a test to hold them to the Python rules'
    m.def("schema", []() {
        py::dict out;
        auto names = [](const char* const* first, int n) { return std::vector<std::string>(first, first + n); };
        for (int k = 0; k < SCHEMA_ENUM_COUNT; ++k)
            out[SCHEMA_ENUMS[k].name] = names(SCHEMA_ENUMS[k].names, SCHEMA_ENUMS[k].size);
        py::dict limits;
        for (int k = 0; k < LIMIT_SIZE; ++k) limits[LIMIT_NAMES[k]] = LIMIT_VALUES[k];
        out["limits"] = limits;
        return out;
    });
    py::class_<Shadow>(m, "Shadow").def(py::init<>());
    py::class_<Kernel>(m, "Kernel")
        .def(py::init<std::shared_ptr<Rules>>())
        .def("copy", &Kernel::copy)
        .def("legal", &Kernel::legal_)
        .def("legal_safe", &Kernel::legal_safe_)
        .def("is_legal", &Kernel::is_legal_)
        .def("apply", &Kernel::apply_)
        .def("apply_safe", &Kernel::apply_safe_)
        .def("apply_unchecked", &Kernel::apply_unchecked_)
        .def("events", &Kernel::events_)
        .def("roll", &Kernel::roll)
        .def("dump", &Kernel::dump)
        .def("changes", &Kernel::changes)
        .def("load", &Kernel::load)
        .def_property_readonly("decider", &Kernel::decider_)
        .def_property_readonly("round", [](const Kernel& k) { return k.state->round; })
        .def_property_readonly("turns", [](const Kernel& k) { return k.state->turns; })
        .def_property_readonly("over", [](const Kernel& k) { return k.state->phase == P_OVER; })
        .def_property_readonly("phase", [](const Kernel& k) { return k.state->phase; })
        .def_property_readonly("winner", [](const Kernel& k) { return k.state->winner; })
        .def("key", [](const Kernel& k) {
            std::string out;
            state_key(*k.rules, *k.state, out);
            return py::bytes(out);
        }, "The position's key, equal exactly when GameState.key() is.");
    m.def("set_compensated_sum", [](bool on) { COMPENSATED_SUM = on; },
          "Sum floats as Python's builtin sum does: compensated (3.12 and later) or not.");
    m.def("py_sum", [](const std::vector<double>& v) { return py_sum(v.begin(), v.end()); },
          "Floats summed as the kernel sums them (for the test that holds it to `sum`).");
    py::class_<AiTables, std::shared_ptr<AiTables>>(m, "AiTables").def(py::init(&make_ai_tables));
    m.def("win_chance", [](const AiTables& t, const std::vector<int>& attack, const std::vector<int>& defense) {
        for (int d : attack)
            if (d < 0 || d >= int(t.attack_values.size())) throw std::invalid_argument("no such die");
        for (int d : defense)
            if (d < 0 || d >= int(t.defense_values.size())) throw std::invalid_argument("no such die");
        return py::make_tuple(
            win_chance(t, attack.data(), int(attack.size()), defense.data(), int(defense.size()), false),
            win_chance(t, attack.data(), int(attack.size()), defense.data(), int(defense.size()), true));
    }, "The chance that `attack` beats `defense` (die indexes), and that it does not, as floats.");
    py::class_<Evaluator, std::shared_ptr<Evaluator>>(m, "Evaluator")
        .def(py::init([](const py::dict& d) { return std::make_shared<Evaluator>(make_weights(d)); }))
        .def("values", [](Evaluator& e, const AiTables& t, const Kernel& k) {
            same_rules(t, k);
            Values v = e.values(t, *k.state);
            return std::vector<double>(v.v.begin(), v.v.begin() + v.n);
        })
        .def("scores", [](Evaluator& e, const AiTables& t, const Kernel& k) {
            same_rules(t, k);
            return e.scores(t, *k.state);
        }, "Every side's score in logit units, before it is turned into chances.")
        .def("tries", [](Evaluator& e, const AiTables& t, const Kernel& k, int piece, int actions, int away,
                         int target, bool standing) {
            same_rules(t, k);
            return e.tries(t, *k.state, state_piece(k, piece), actions, away, state_piece(k, target), standing);
        }, "The chances to win of the challenges piece number `piece` can make against `target`.")
        .def("points_value", [](Evaluator& e, const AiTables& t, const Kernel& k, int side, double points) {
            same_rules(t, k);
            if (side < 0 || side >= t.rules->nsides) throw std::invalid_argument("no such side");
            return e.points_value(t, *k.state, side, points);
        }, "What `points` more are worth to `side` (its index), in logit units.");
    py::class_<Search>(m, "Search")
        .def(py::init([](const py::dict& d, std::shared_ptr<Evaluator> e) {
            return std::unique_ptr<Search>(new Search(make_params(d), std::move(e)));
        }))
        .def("rank", [](Search& s, const AiTables& t, const Kernel& k, const std::vector<int32_t>& codes, int seat,
                        long long spent) {
            same_rules(t, k);
            return ranked(s.rank(t, *k.state, k.inside_codes(codes), seat, spent));
        })
        .def("rank_decision", [](Search& s, const AiTables& t, const Kernel& k, const std::vector<int32_t>& codes,
                                 int seat) {
            same_rules(t, k);
            return ranked(s.rank_decision(t, *k.state, k.inside_codes(codes), seat));
        })
        .def("clear", &Search::clear)
        .def_readonly("positions", &Search::positions)
        .def_readonly("cuts", &Search::cuts)
        .def_property_readonly("table_size", &Search::table_size)
        .def_property_readonly("evals_size", &Search::evals_size);
}
