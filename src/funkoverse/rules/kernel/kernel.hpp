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

namespace fk {

constexpr int MAX_SQUARES = 256;      // 4 x 64 bits; a larger map is played by the Python engine
constexpr int MAX_PIECES = 160;       // the game's pieces plus the pre-check's trial tokens
constexpr int MAX_SIDES = 4;          // Free-for-All and More Players
constexpr int TRACK = 4;              // Cooldown Tracks: "numbered 1 to 4"
constexpr int SLOT_CAP = 24;          // things on one space of a cooldown track
constexpr int STACK_CAP = 40;         // frames of work in progress
constexpr int STATUS_CAP = 8;         // status cards by one character
constexpr int ITEM_CAP = 4;           // items held by one character
constexpr int TARGETS_CAP = 24;       // what one ability challenges (18 rivals in a free-for-all)
constexpr int DICE_CAP = 16;          // dice of one side of a roll
constexpr int ASKED_CAP = 24;         // hooks asked before one roll
constexpr int RETURN_CAP = 16;        // characters of one return frame
constexpr int PICK_CAP = 6;           // characters one side drafts (a scenario's largest team)
constexpr int GIFT_CAP = ITEM_CAP;    // items one side drafts
constexpr int32_t NIL = INT32_MIN;    // an absent number (Python's None)
constexpr int16_t NIL16 = INT16_MIN;  // an absent step parameter

// The rulebook's numbers (funkoverse.rules.numbers).
constexpr int ACTIONS_PER_TURN = 2;
constexpr int RALLY_ACTIONS = 2;
constexpr int BASIC_MOVE = 2;
constexpr int BASIC_CHALLENGE_DICE = 2;
constexpr int KNOCKED_OUT_SLOT = 1;
constexpr int COMPANION_SLOT = 1;
constexpr int POINT_MARKER_SLOT = 4;
constexpr int POINT_MARKER_POINTS = 1;
constexpr int FLAG_POINTS = 2;
constexpr int CONTROL_MARKERS = 3;
constexpr int CHAMPION_SLOT = 2;
constexpr int BLOOD_SLOT = 3;
constexpr int TUNNEL_REACH = 5;

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

enum Kind : uint8_t { K_CHARACTER, K_BASIC, K_MINION, K_COMPANION, K_BONUS, K_TOKEN, K_MARKER };
inline bool blocking_kind(int k) { return k <= K_BONUS; }            // BLOCKING_KINDS
inline bool knockable_kind(int k) { return k <= K_BASIC; }           // KNOCKABLE_KINDS
inline bool rival_kind(int k) { return k <= K_COMPANION; }           // RIVAL_KINDS
inline bool character_kind(int k) { return k <= K_BASIC; }          // Piece.is_character

enum Role : uint8_t { R_NONE, R_POINT, R_FLAG, R_CONTROL, R_TUNNEL, R_MINION, R_BONUS };

enum Phase : uint8_t { P_FLIP, P_DRAFT, P_SECRET, P_PLACE, P_CHOOSE, P_ACT, P_OVER };

enum Color : uint8_t { YELLOW, RED, BLUE, GRAY };

// What a thing on a cooldown track is (its TrackItem's first word).
enum TrackKind : uint8_t { T_TOKEN, T_CHARACTER, T_COMPANION, T_POINT, T_ITEM, T_DIE, T_COMPONENT };

// The words of the effects vocabulary (vocabulary.OPS), and the purposes hooks and the
// scenario ask decisions for.
enum Op : uint8_t {
    OP_STAND_UP,  // stand_up
    OP_STAND_UP_OR_SHIFT_OFF,  // stand_up_or_shift_off
    OP_MOVE,  // move
    OP_CHALLENGE,  // challenge
    OP_CHALLENGE_EACH,  // challenge_each
    OP_ASSIST,  // assist
    OP_INTERACT,  // interact
    OP_PUSH_ONE,  // push_adjacent_rival
    OP_PUSH_EACH,  // push_each_adjacent_rival
    OP_PULL_SEEN,  // pull_rival_seen
    OP_PULL_TARGET,  // pull_target
    OP_PLACE_SELF,  // place_self_adjacent_to_rival
    OP_CHOOSE_ADJACENT,  // choose_adjacent_character
    OP_PLACE_CHOSEN,  // place_chosen_adjacent
    OP_PLACE_TOKEN,  // place_token
    OP_PLACE_MINION,  // place_minion
    OP_MINION_CHALLENGE,  // minion_challenge
    OP_GIVE_STATUS,  // give_status
    OP_STATUS,  // _status
    OP_SHIFT_OFF,  // shift_off
    OP_SHIFT_DOWN,  // shift_down
    OP_SHIFT_OFF_TOKEN,  // shift_off_token
    OP_CHAMPION,  // champion
    OP_BLOOD,  // blood
    OP_TUNNEL,  // tunnel
    OP_FLAG_RETURN,  // flag_return
    OP_COUNT
};

// The named hooks of the shipped cards (content/hooks).
enum Hook : uint8_t {
    H_CHAMPION,   // champion-of-themyscira
    H_PREDATORY,  // predatory-senses
    H_BLOODY,     // bloody-terror
    H_FORBIDDEN,  // forbidden-depths
    H_MADE_ME,    // made-me-from-dead
    H_SHE_SEES,   // she-sees
    H_SNEAKING,   // sneaking
    H_COUNT,
    H_SCENARIO = 254,  // a decision the scenario asks
    H_NONE = 255
};

// The kinds of choices (choices.py), the first field of a choice's code.
enum ChoiceKind : uint8_t {
    C_FIRST,
    C_ROLL,
    C_LEADER,
    C_PLACE,
    C_RETURN,
    C_CHOOSE,
    C_MOVE,
    C_CHALLENGE,
    C_ASSIST,
    C_INTERACT,
    C_BONUS,
    C_PLACE_CONTROL,
    C_FLIP_CONTROL,
    C_ABILITY,
    C_ITEM,
    C_COMPANION,
    C_RALLY,
    C_END,
    C_SKIP,
    C_TARGET,
    C_PUSH,
    C_PULL,
    C_CARRY,
    C_PUT,
    C_TOKEN,
    C_STATUS,
    C_SHIFT,
    C_SHIFTOFF,
    C_MINION,
    C_FLAG,
    C_OPTION,
    C_PICK,  // a: the draft's pool entry (the first with that card)
    C_GIVE,  // a: the item (Rules::items), b: the holder's pool entry
    C_KINDS
};

// A choice as one integer: kind in the low 8 bits, then two fields of 11 bits. The
// fields are indexes of the game's tables (pieces, squares, abilities, track items...).
inline int32_t code(int kind, int a = 0, int b = 0) { return kind | (a << 8) | (b << 19); }
inline int code_kind(int32_t c) { return c & 0xff; }
inline int code_a(int32_t c) { return (c >> 8) & 0x7ff; }
inline int code_b(int32_t c) { return (c >> 19) & 0x7ff; }

// Option words of the hooks ("champion:add", "blood:die", "blood:place").
enum OptionValue : uint8_t { OPT_CHAMPION_ADD, OPT_BLOOD_DIE, OPT_BLOOD_PLACE };

enum EventKind : uint8_t {
    E_FIRST_PLAYER,
    E_PICKED,
    E_ITEM_CHOSEN,
    E_TEAM_REVEALED,
    E_LEADER_PICKED,
    E_LEADER_REVEALED,
    E_PLACED,
    E_RETURNED,
    E_TURN,
    E_OFF_THE_TRACK,
    E_EXTRA_ACTION,
    E_MOVED,
    E_CHALLENGE,
    E_DICE,
    E_CHALLENGE_LOST,
    E_KNOCKED_DOWN,
    E_KNOCKED_OUT,
    E_COMPANION_OUT,
    E_TOKEN_REMOVED,
    E_STOOD_UP,
    E_ASSISTED,
    E_RALLIED,
    E_ABILITY,
    E_ITEM_USED,
    E_COMPANION_ACTS,
    E_ABILITY_STOPPED,
    E_ABILITY_ENDED,
    E_PUSHED,
    E_PULLED,
    E_PLACED_BESIDE,
    E_CARRY_CHOSEN,
    E_CARRIED,
    E_TOKEN_PLACED,
    E_TOKEN_DISCARDED,
    E_STATUS_GIVEN,
    E_STATUS_DISCARDED,
    E_SHIFTED_DOWN,
    E_SHIFTED_OFF,
    E_TOKEN_BACK,
    E_MARKER_BACK,
    E_POINT_MARKER,
    E_FLAG_RETURN,
    E_NO_RETURN,
    E_CONTROL_PLACED,
    E_CONTROL_FLIPPED,
    E_BONUS_COMPLETED,
    E_POINTS,
    E_TARGET_REACHED,
    E_DIE_ADDED,
    E_DIE_PLACED,
    E_DECLINED,
    E_EXHAUSTED,
    E_ROUND_BEGINS,
    E_WINNER,
    E_KINDS
};

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
    std::vector<int16_t> hook_name, hook_title;
    std::vector<int16_t> color_str;
    std::vector<int16_t> status_in_play_why;  // per status card: "the X status card is in play"
    std::vector<int16_t> group_every_why;     // group string -> "every G status card is in play"
    std::vector<int16_t> point_marker_why;  // per piece: "point marker A" (-1)
    int16_t leader_why[2][2];               // [by leader][victim leader]
    int16_t str_misc[40];
    std::vector<int16_t> role_name;  // per Role: the token's name in events ("Tunnel", "minion")
    // steps the hooks and the scenario ask decisions with
    int16_t step_move1 = -1, step_champion = -1, step_blood = -1, step_tunnel = -1,
            step_shift_off_token = -1, step_flag_return = -1;
    std::vector<int16_t> status_step_of_group;  // group string -> its "_status" step
    int target_points = NIL;                    // Scenario.points_to_win, NIL: None
    int per_side = 0;                           // the largest team's characters
    bool has_draft = false;                     // the teams are drafted in the game
    DraftDef draft;
    int die_standard = -1, die_champion = -1, die_blood = -1;  // indexes of dice_ids
    std::vector<int16_t> side_rank;             // each seat's place in sorted order
    int16_t champion_item = -1, blood_item = -1;  // ("die", "champion"), ("component", "blood")
    std::vector<int16_t> token_item;              // per color: ("token", color)
    std::vector<int16_t> item_track_item;         // per item: ("item", id)
    std::vector<int16_t> piece_track_item;        // per piece: ("character"/"companion"/"point", id)
};

// indexes of Rules::str_misc
enum Misc {
    S_ULTIMATE_TURN,      // "the ultimate character's turn"
    S_ULTIMATE_RULE,      // "Ultimate Mode Rules"
    S_DECREASE_RULE,      // "Glossary: Decreasing an Ability Cost"
    S_FIRST_GAME_RULE,    // "Winning Your First Game"
    S_RALLY_WHY,          // "Rally: both actions to stand up"
    S_ASSIST,             // "Assist"
    S_BASIC_CHALLENGE,    // "basic challenge"
    S_MINION_TOKEN,       // "minion token"
    S_CHALLENGE,          // "challenge"
    S_TARGET_GONE,        // "its target cannot be challenged"
    S_KNOCK_OUT,          // "knock-out"
    S_CONTROL_SHOWING,    // "control markers showing its color"
    S_CONTROL_MOST,       // "the most control markers"
    S_FLAG_WHY,           // "a return from the rival flag"
    S_CHAMPION_DIE,       // "Champion die"
    S_CHAMPION_RULE,      // "Champion of Themyscira"
    S_BLOOD_TOKEN,        // "Blood token"
    S_BLOOD_DIE,          // "Blood die"
    S_BLOOD_RULE,         // "The Bloody Terror of Transylvania"
    S_TUNNEL,             // "Tunnel"
    S_FORBIDDEN_RULE,     // "Forbidden Depths"
    S_SNEAKING_ID,        // "sneaking"
    S_SNEAKING_NAME,      // the Sneaking card's name
    S_SNEAKING_RULE,      // "Sneaking"
    S_MINION,             // "minion"
    S_HIDDEN,             // "?"
    S_MISC_COUNT
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

enum FrameType : uint8_t { F_STEPS, F_CHOICE, F_ROLL, F_RETURN, F_TURN_START, F_ROUND_END };

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
    int16_t asked[ASKED_CAP];  // piece * H_COUNT + hook
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
