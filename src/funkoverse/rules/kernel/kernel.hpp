// The compiled rules kernel: the same game as the Python modules of funkoverse.rules, on a
// flat state that copies with one memcpy and answers every question from integer tables.
//
// The Python engine is the reference: every function here mirrors one of its functions and
// names it, and tests/test_kernel.py plays thousands of seeded games through both, choice by
// choice, comparing the legal choices, the events and the states. Everything static (the
// map's tables, the cards of the game, the strings events and choices name) is built once
// per setup in `Rules`; a `State` holds only what changes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

// the enums, limits and numbers the kernel shares with funkoverse.rules (rules/core/schema.py)
#include "schema.hpp"

namespace fk {

constexpr int32_t NIL = INT32_MIN;    // an absent number (Python's None)
constexpr int16_t NIL16 = INT16_MIN;  // an absent step parameter


// --------------------------------------------------------------------------- squares

struct Bits {
    uint64_t w[4] = {0, 0, 0, 0};
    void set(int i) { w[i >> 6] |= uint64_t(1) << (i & 63); }
    void reset(int i) { w[i >> 6] &= ~(uint64_t(1) << (i & 63)); }
    bool test(int i) const { return (w[i >> 6] >> (i & 63)) & 1; }
    bool any() const { return (w[0] | w[1] | w[2] | w[3]) != 0; }
    int count() const {
        return __builtin_popcountll(w[0]) + __builtin_popcountll(w[1]) +
               __builtin_popcountll(w[2]) + __builtin_popcountll(w[3]);
    }
    Bits& operator|=(const Bits& o) {
        for (int k = 0; k < 4; ++k) w[k] |= o.w[k];
        return *this;
    }
    Bits& operator&=(const Bits& o) {
        for (int k = 0; k < 4; ++k) w[k] &= o.w[k];
        return *this;
    }
    Bits minus(const Bits& o) const {
        Bits r;
        for (int k = 0; k < 4; ++k) r.w[k] = w[k] & ~o.w[k];
        return r;
    }
    Bits operator&(const Bits& o) const {
        Bits r;
        for (int k = 0; k < 4; ++k) r.w[k] = w[k] & o.w[k];
        return r;
    }
    Bits operator|(const Bits& o) const {
        Bits r;
        for (int k = 0; k < 4; ++k) r.w[k] = w[k] | o.w[k];
        return r;
    }
    bool intersects(const Bits& o) const {
        return ((w[0] & o.w[0]) | (w[1] & o.w[1]) | (w[2] & o.w[2]) | (w[3] & o.w[3])) != 0;
    }
    bool operator==(const Bits& o) const {
        return w[0] == o.w[0] && w[1] == o.w[1] && w[2] == o.w[2] && w[3] == o.w[3];
    }
    // every square in increasing order
    template <class F>
    void each(F f) const {
        for (int k = 0; k < 4; ++k) {
            uint64_t x = w[k];
            while (x) {
                int b = __builtin_ctzll(x);
                f((k << 6) | b);
                x &= x - 1;
            }
        }
    }
};

// --------------------------------------------------------------------------- kinds

inline bool blocking_kind(int k) { return k <= K_BONUS_OBJECTIVE; }            // BLOCKING_KINDS
inline bool knockable_kind(int k) { return k <= K_BASIC; }           // KNOCKABLE_KINDS
inline bool rival_kind(int k) { return k <= K_COMPANION; }           // RIVAL_KINDS
inline bool character_kind(int k) { return k <= K_BASIC; }          // Piece.is_character








// A choice as one integer: kind in the low 8 bits, then two fields of 11 bits. The
// fields are indexes of the game's tables (pieces, squares, abilities, track items...).
inline int32_t code(int kind, int a = 0, int b = 0) { return kind | (a << 8) | (b << 19); }
inline int code_kind(int32_t c) { return c & 0xff; }
inline int code_a(int32_t c) { return (c >> 8) & 0x7ff; }
inline int code_b(int32_t c) { return (c >> 19) & 0x7ff; }



// One event; string fields are indexes of Rules::strings (-1: None), squares are square
// indexes (-1: None), numbers NIL for None.
struct Event {
    uint8_t kind;
    bool secret = false;
    int16_t piece = -1, other = -1, side = -1, card = -1, name = -1, source = -1, rule = -1;
    int16_t square = -1, origin = -1;
    int32_t number = NIL, total = NIL;
    uint8_t nnames = 0;  // E_TEAM_REVEALED: the names of the side's picks (strings)
    int16_t names[PICK_CAP];
};

// --------------------------------------------------------------------------- static tables

struct StepDef {
    uint8_t op = 0;
    int16_t squares = NIL16, range = NIL16, dice = NIL16, within = NIL16, amount = NIL16,
            extra_vs_knocked_down = NIL16;
    uint8_t target = 0;  // 0 none, 1 "different", 2 "same", 3 anything else
    uint8_t bonus = 0;   // 0 none, 1 "target_defense", 2 "highest_point_marker", 3 other
    bool optional = false, if_won = false, only_point_marker = false;
    uint8_t token_role = R_NONE;
    int16_t card = -1;        // give_status: a status card (index), -1 none
    int16_t card_str = -1;    // ... its id string (-1: the parameter is empty)
    int16_t group = -1;       // give_status/_status: a group name (string)
    uint16_t kinds = 0;       // shift_down: a mask of TrackKind
    int16_t shift_item = -1;  // shift_off: the track item (die or component)
    int get(int16_t v, int dflt) const { return v == NIL16 ? dflt : v; }
};

struct AbilityDef {
    int16_t id = -1, name = -1;  // strings
    int16_t key = 0;             // index among the game's ability ids (choice codes)
    uint8_t color = 0;
    int cost = 0, cost_vs_knocked_down = 0;
    bool challenge_action = false, while_knocked_down = false, while_knocked_out = false,
         declare_target = false;
    int16_t seq = -1;
};

// A trait's behaviour as its card file gives it (funkoverse.rules.core.traits).
struct EffectDef {
    uint8_t op = 0;          // EffectOp
    int16_t die = -1;        // index of dice_ids (add_die)
    int16_t item = -1;       // track item (place_on_track, shift_down; add_die's die when placed)
    int space = 0, by = 0, count = 0;
    int16_t name = -1;       // string: the die or thing in the log
};

struct AnswerDef {
    int16_t option = -1;  // index of Rules::options: the choice's code
    std::vector<EffectDef> effects;
};

struct TriggerDef {
    uint32_t when = 0;     // bits of When
    uint8_t who = 0;       // Who
    uint32_t needs = 0;    // bits of Need
    int16_t on_track = -1, off_track = -1;  // track items
    int16_t group = -1;    // string: the status card group (given_status)
    int count = 0;         // status cards of the group the owner holds (given_status)
    bool optional = false;
    int16_t step = -1;     // the decision's step (-1: none)
    uint8_t offer = 0;     // Offer
    uint8_t token = 0;     // Role (place_token_here)
    std::vector<AnswerDef> answers;
    int times = 1;
    std::vector<EffectDef> effects, otherwise;
};

struct TraitDef {
    int16_t name = -1, title = -1;  // strings: the hook's name; the trait's words in the log
    int16_t card = -1;              // the status card carrying it (index of statuses), -1
    std::vector<TriggerDef> triggers;
    int defense = 0;
    int16_t defense_while = -1;     // track item
    int reach = 1;
    uint32_t reach_for = 0;         // bit 0: assist, bit 1: interact
    int links = -1, links_within = 0;  // Role of the tokens that link
    int rivals_discard = -1;        // Role
};

struct CardDef {  // a character, basic character, or a companion's face
    int16_t id = -1, name = -1;
    int defense = 0;
    bool basic = false, elusive = false;
    std::vector<int16_t> abilities;
    std::vector<uint8_t> hooks;
};

struct StatusDef {
    int16_t id = -1, name = -1, group = -1;
    std::vector<int16_t> abilities;
    std::vector<uint8_t> hooks;
};

struct ItemDef {  // an item, or a companion's action
    int16_t id = -1, name = -1;
    int16_t key = 0;  // index among the game's item ids / companion action ids (choice codes)
    int cost = 0;
    bool challenge_action = false, basic_action = false;
    int16_t seq = -1;
};

struct CompanionDef {
    int16_t id = -1;
    std::vector<int16_t> actions;  // ItemDef indexes (Rules::actions)
};

struct BonusDef {
    int16_t id = -1, name = -1, points_why = -1;
    int points = 0;
};

struct TrackItemDef {
    uint8_t kind;
    int16_t ref;       // string: a color, piece id, item id, die id or component id
    int16_t words;     // string: track.describe()
    int16_t piece = -1;  // the piece, for characters, companions and point markers
    uint8_t color = 0;   // for tokens
};

// Scenario Setup, step 5 as decisions (setup_phase): the pool the sides draft from, and
// each piece a pick makes, numbered among the game's pieces (Rules::piece_id)
struct DraftToken {
    int16_t piece;  // its number among the game's pieces
    uint8_t kind, role;
    int8_t defense;
};

struct DraftCard {
    int16_t card;  // Rules::cards
    int16_t id, name;  // strings
    bool basic = false;
    std::vector<uint8_t> dots;                    // colors of its ability tokens
    int16_t plain = -1;                           // its piece when only one side picks it
    std::vector<int16_t> own;                     // per seat: its piece when both do ("id-side")
    std::vector<std::vector<DraftToken>> tokens;  // per seat: the tokens it brings
};

struct DraftItem {
    int16_t item;  // Rules::items
    std::vector<std::vector<DraftToken>> tokens;  // per seat: the tokens it brings
};

struct DraftDef {
    bool secret = true;
    int size = 0, items = 0;
    std::vector<DraftCard> pool;        // Draft.characters, in order
    std::vector<int16_t> first;         // per pool entry: the first entry with its card
    std::vector<DraftItem> item_pool;   // Draft.item_ids, in order
    std::vector<int16_t> item_tokens;   // per Rules::items: its DraftItem, -1
};

struct ScenarioDef {
    bool point_markers = false, adjacent_knockout_points = false, first_knockout_wins = false,
         immediate_target = false, flags = false, leaders = false, control = false;
    int knockout_points = 0;
    int target_two = NIL, target_three = NIL;
};

struct Board {
    int width = 0, height = 0, n = 0;
    Bits blocked, obscured, all;
    std::vector<std::vector<int16_t>> steps, adjacent;
    std::vector<Bits> adjacent_bits;
    std::vector<uint8_t> dist;  // n x n king-move distances
    // sight, per origin (board.SightTable): base, between[t] for t clear, shadow[s]
    std::vector<Bits> base;
    std::vector<std::vector<std::vector<int16_t>>> between;
    std::vector<std::vector<Bits>> shadow;
    std::vector<std::vector<uint8_t>> has_shadow;
    int distance(int a, int b) const { return dist[a * n + b]; }
    void build_sight(const std::vector<std::pair<int, int>>& walls,
                     const std::vector<std::pair<int, int>>& points);
};

struct Rules {
    std::vector<std::string> strings;
    std::shared_ptr<Board> board;
    int nsides = 0;
    std::vector<int16_t> side_str;  // each seat's name (string)
    std::vector<std::vector<int16_t>> start_area;  // each seat's starting area squares
    std::vector<bool> ultimate;                      // each seat: an ultimate team
    std::vector<StepDef> steps;
    std::vector<std::vector<int16_t>> seqs;
    std::vector<AbilityDef> abilities;
    std::vector<CardDef> cards;
    std::vector<StatusDef> statuses;  // the setup's status cards, in its order
    std::vector<ItemDef> items;       // the setup's items
    std::vector<ItemDef> actions;     // companions' actions
    std::vector<CompanionDef> companions;
    std::vector<BonusDef> bonuses;
    std::vector<TrackItemDef> track_items;
    std::vector<int16_t> dice_ids;  // strings
    ScenarioDef scenario;
    // pieces of the game (fixed after setup): id string, rank of the id in sorted order
    int npieces = 0;
    std::vector<int16_t> piece_id, piece_rank;
    std::vector<int16_t> piece_of_string;  // string -> piece index, -1
    std::vector<int16_t> companion_of_string, bonus_of_string, status_of_string, item_of_string;
    std::vector<int16_t> label_str;  // each square's label (string)
    // scenario geometry
    std::vector<int16_t> point_square_of_string;  // a point marker's letter -> its setup square
    std::vector<int16_t> flag_square;              // per seat, -1
    std::vector<int16_t> leader_square;            // per seat, -1
    std::vector<std::pair<int16_t, std::vector<int16_t>>> control_areas;  // (name, squares), sorted
    // strings the engine's events use
    int16_t s_empty = -1;
    std::vector<TraitDef> traits;  // the game's traits: a card's `hooks` index them
    std::vector<std::pair<int16_t, int16_t>> options;  // (word, value) strings of C_OPTION codes
    std::vector<int16_t> color_str;
    std::vector<int16_t> status_in_play_why;  // per status card: "the X status card is in play"
    std::vector<int16_t> group_every_why;     // group string -> "every G status card is in play"
    std::vector<int16_t> point_marker_why;  // per piece: "point marker A" (-1)
    int16_t leader_why[2][2];               // [by leader][victim leader]
    int16_t str_misc[40];
    std::vector<int16_t> role_name;  // per Role: the token's name in events
    // steps the scenario asks decisions with
    int16_t step_flag_return = -1;
    std::vector<int16_t> status_step_of_group;  // group string -> its "_status" step
    int target_points = NIL;                    // Scenario.points_to_win, NIL: None
    int per_side = 0;                           // the largest team's characters
    bool has_draft = false;                     // the teams are drafted in the game
    DraftDef draft;
    int die_standard = -1;  // index of dice_ids
    std::vector<int16_t> side_rank;             // each seat's place in sorted order
    std::vector<int16_t> token_item;              // per color: ("token", color)
    std::vector<int16_t> item_track_item;         // per item: ("item", id)
    std::vector<int16_t> piece_track_item;        // per piece: ("character"/"companion"/"point", id)
};


// --------------------------------------------------------------------------- the state

struct Piece {
    int16_t square = -1;
    int16_t card = -1;   // Rules::cards
    int16_t owner = -1;  // string (a piece id, or a side for a bonus objective); -1 ""
    int16_t ref = -1;    // string; -1 ""
    int16_t id = -1;     // string
    int16_t rank = 0;    // the id's place in sorted order
    int8_t side = -1;    // seat, -1 ""
    uint8_t kind = K_MARKER, role = R_NONE;
    int8_t defense = -1;
    uint8_t markers = 0, needed = 1;
    bool standing = true, exhausted = false, elusive = false, placed = false;
    uint8_t nstat = 0, nitems = 0;
    int16_t statuses[STATUS_CAP];
    int16_t items[ITEM_CAP];
    bool has_status(int s) const {
        for (int i = 0; i < nstat; ++i)
            if (statuses[i] == s) return true;
        return false;
    }
};

struct SideState {
    uint8_t pool[4] = {0, 0, 0, 0};
    uint8_t pool_order[4] = {0, 0, 0, 0};  // colors in the order they entered the pool
    uint8_t npool = 0;
    uint8_t nslot[TRACK] = {0, 0, 0, 0};
    int16_t slot[TRACK][SLOT_CAP];  // track item indexes
    int32_t points = 0;
    int16_t leader = -1;  // string (a piece id or "?"), -1 None
    uint8_t nreturned = 0;
    int16_t returned[RETURN_CAP];
    // the draft: the pool entries picked and the items given (Rules::items, holder's pool
    // entry), in order; kept after the reveal, where they are the side's team
    uint8_t npicks = 0, ngifts = 0;
    int8_t picks[PICK_CAP];
    int16_t gift_item[GIFT_CAP];
    int8_t gift_holder[GIFT_CAP];
    void pool_add(int color, int n) {
        bool present = false;
        for (int i = 0; i < npool; ++i)
            if (pool_order[i] == color) present = true;
        if (!present) pool_order[npool++] = uint8_t(color);
        pool[color] = uint8_t(pool[color] + n);
    }
    int position(int item) const {  // SideState.track_position
        for (int s = 0; s < TRACK; ++s)
            for (int i = 0; i < nslot[s]; ++i)
                if (slot[s][i] == item) return s + 1;
        return 0;
    }
    void slot_remove(int s, int item) {  // list.remove: the first one
        for (int i = 0; i < nslot[s]; ++i)
            if (slot[s][i] == item) {
                for (int j = i + 1; j < nslot[s]; ++j) slot[s][j - 1] = slot[s][j];
                --nslot[s];
                return;
            }
    }
    bool slot_has(int s, int item) const {
        for (int i = 0; i < nslot[s]; ++i)
            if (slot[s][i] == item) return true;
        return false;
    }
    void slot_append(int s, int item) {
        if (nslot[s] >= SLOT_CAP) throw std::runtime_error("cooldown track space overflow");
        slot[s][nslot[s]++] = int16_t(item);
    }
};


struct Frame {
    uint8_t type;
    // StepsFrame: piece, source (string), seq + pc, target, started_standing, won, targets,
    // chosen. ChoiceFrame: decider (side), step, piece, optional, hook. RollFrame:
    // challenger (piece), target, attack/defense (dice), source, asked. ReturnFrame: side,
    // pieces. TurnStartFrame: piece. RoundEndFrame: stage.
    int16_t piece = -1;
    int16_t source = -1;
    int16_t seq = -1;
    uint8_t pc = 0;
    int16_t target = -1;
    bool started_standing = true;
    int8_t won = -1;
    uint8_t ntargets = 0;
    int16_t targets[TARGETS_CAP];
    int16_t chosen = -1;
    int8_t side = -1;  // decider / return side
    int16_t step = -1;
    bool optional = false;
    uint8_t hook = H_NONE;
    uint8_t stage = 0;
    uint8_t nattack = 0, ndefense = 0, nasked = 0, npieces = 0;
    uint8_t attack[DICE_CAP], defense[DICE_CAP];
    int16_t asked[ASKED_CAP];  // piece * traits + trait
    int16_t pieces[RETURN_CAP];
};

struct State {
    int npieces = 0;  // the game's pieces, then any trial tokens of a pre-check
    int8_t first_player = -1, to_act = -1, winner = -1;
    uint8_t phase = P_FLIP;
    int16_t active = -1;
    int actions_left = 0;
    int round = 0, turns = 0;
    bool leaders_revealed = false;
    int16_t companion_used = -1;
    int16_t acting = -1;
    uint8_t nacting = 0;
    int16_t acting_statuses[STATUS_CAP];
    int nstack = 0;
    SideState sides[MAX_SIDES];
    Frame stack[STACK_CAP];
    Piece pieces[MAX_PIECES];

    void copy_from(const State& o) {
        // everything before the stack and pieces, then only the frames and pieces in use
        std::memcpy(static_cast<void*>(this), &o, offsetof(State, stack));
        std::memcpy(static_cast<void*>(stack), o.stack, sizeof(Frame) * o.nstack);
        std::memcpy(static_cast<void*>(pieces), o.pieces, sizeof(Piece) * o.npieces);
    }
    Frame& push(uint8_t type) {
        if (nstack >= STACK_CAP) throw std::runtime_error("stack overflow");
        Frame& f = stack[nstack++];
        f = Frame();
        f.type = type;
        return f;
    }
    Frame* top() { return nstack ? &stack[nstack - 1] : nullptr; }
};

// --------------------------------------------------------------------------- the engine

struct Game;  // a state with its rules: what every function below works on
using Events = std::vector<Event>;
using Codes = std::vector<int32_t>;

struct Game {
    const Rules* R;
    State* S;
    Events* ev;  // where events go (may be a scratch list)
    const Board& B() const { return *R->board; }
    Piece& P(int i) { return S->pieces[i]; }
};

// A piece's number among the game's pieces (Rules::piece_id: what choice codes name outside
// the kernel, and what its tables of pieces are indexed by). It is the piece's index in the
// state but in a drafted game, whose teams' pieces are made in the order they were picked.
inline int number_of(const Rules& R, const State& S, int pi) {
    int16_t id = S.pieces[pi].id;
    return id < 0 ? -1 : R.piece_of_string[id];
}

// the largest team's characters (max(len(t.characters) for t in setup.teams)): a drafted
// team is as large as its picks
inline int largest_team(const Rules& R, const State& S) {
    if (!R.has_draft) return R.per_side;
    int n = 0;
    for (int s = 0; s < R.nsides; ++s) n = std::max(n, int(S.sides[s].npicks));
    return n;
}

// Scenario.points_to_win (NIL: None): with two characters a side or fewer, the target for two
inline int points_to_win(const Rules& R, const State& S) {
    if (!R.has_draft) return R.target_points;
    const ScenarioDef& sc = R.scenario;
    if (largest_team(R, S) <= 2 && sc.target_two != NIL) return sc.target_two;
    return sc.target_three != NIL ? sc.target_three : sc.target_two;
}

// engine.cpp
int decider(const Rules& R, const State& S);  // a seat, -1 chance, -2 over
void legal(Game& g, Codes& out);
bool is_legal(Game& g, int32_t c);
void apply_unchecked(Game& g, int32_t c);
void advance(Game& g);
// Scenario.on_knockout, for the evaluator's question of what a knock-out would do
void scenario_knockout(Game& g, int by, int victim);

}  // namespace fk
