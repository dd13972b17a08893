// The rules kernel's functions shared between its files: one file a topic, as the Python
// modules of funkoverse.rules are one module a topic; each function names the Python one
// it mirrors where it is defined.
#pragma once

#include "geometry.hpp"

namespace fk {

// A part of an ability that cannot be done: the ability ends (vocabulary.CannotBeDone)
struct CannotBeDone {
    int16_t why;  // a string, -1: none
};

struct OwnedHook {
    int16_t owner;
    uint8_t hook;
};

// The part of each word in the pre-check: given the squares the challenger may stand on
// when the step begins, the squares after it (`next`), or whether a target is found.
enum Reach { REACH_NONE, REACH_SQUARES, REACH_TRUE, REACH_FALSE };

// world.cpp: world questions: hooks, abilities, defense, reach, movement, arrival (funkoverse.rules.world)
int piece_of(Game& g, int16_t str);
int target_points(Game& g);
int per_side(Game& g);
int order_from(Game& g, int first, int* out);
int characters(Game& g, int side, int* out);
int hooks_of(Game& g, int pi, uint8_t* out);
int all_hooks(Game& g, OwnedHook* out);
bool has_hook(Game& g, int pi, uint8_t hook);
int in_turn_order(Game& g, OwnedHook* out);
int abilities_of(Game& g, int pi, int16_t* out);
int ability_cost(Game& g, int ai, int target);
int find_ability(Game& g, int pi, int key);
int defense_of(Game& g, int pi);
Bits adjacent_set(Game& g, int pi);
Bits reach_set(Game& g, int pi, int purpose);
int tokens_of(Game& g, int side, int role, int* out);
bool move_links(Game& g, int pi, Links& links);
Bits move_options(Game& g, int pi, int n);
int knocked_down_allies_in(Game& g, int pi, const Bits& squares, int* out);
int arrival_squares(Game& g, int side, int* out);
void put_on_map(Piece& p, int square);

// track.cpp: the cooldown track: placing, shifting down and off, cooldown (funkoverse.rules.track)
void track_place(Game& g, int side, int item, int number, int was = 0);
void returned(Game& g, int side, int item, std::vector<int16_t>& back);
void shift_down(Game& g, int side, int item, int amount, std::vector<int16_t>& back, int at = 0);
void shift_off(Game& g, int side, int item, std::vector<int16_t>& back);
void cooldown(Game& g, int side, std::vector<int16_t>& back);

// stack.cpp: the stack of work in progress and the reactions it holds (funkoverse.rules.stack)
Frame& push_return(Game& g, int side, const std::vector<int16_t>& pieces);
Frame& push_choice(Game& g, int side, int step, int piece, bool optional, uint8_t hook);
Frame& push_steps(Game& g, int piece, int source, int seq, int target, bool standing);
Frame* nearest_steps(Game& g);
int nearest_roll_index(Game& g);
Frame* nearest_roll(Game& g);  // the challenge about to be rolled (stack.nearest_roll)
int16_t current_source(Game& g);
bool in_targets_so_far(Game& g, int16_t pid);
void add_target(Frame* f, int16_t pid);
void stand_up(Game& g, int pi, int16_t why);

// scenario.cpp: how a game is won and scored: points, Flags, Leaders, Control (funkoverse.rules.scenario)
void gain(Game& g, int side, int points, int16_t why);
void on_knockout(Game& g, int by, int victim);
int flag_returners(Game& g, int side, int* out);
bool returned_already(const SideState& s, int pi);
void round_end_notes(Game& g);
void round_end_frames(Game& g);
void control_points(Game& g);
void check_winner(Game& g);
void scenario_interactions(Game& g, int actor, const Bits& squares, Codes& out);
bool scenario_interact(Game& g, int actor, int32_t c);
void scenario_choices(Game& g, int decider, Codes& out);
void scenario_choose(Game& g, int decider, int32_t c);

// challenges.cpp: declaring a challenge, what comes before the dice, what losing does (funkoverse.rules.challenges)
int highest_point_marker(Game& g);
int attack_dice(Game& g, int target, const StepDef& s);
void before_roll(Game& g);
void declare_challenge(Game& g, int challenger, int target, int dice, int16_t source);
void knock_out(Game& g, int victim, int by);
void resolve_challenge(Game& g, const Frame& roll, bool won);

// vocabulary.cpp: the words of the effects vocabulary: moving, interacting, pushing, placing, status cards (funkoverse.rules.vocabulary)
void move_piece(Game& g, int pi, int square);
void assist(Game& g, int pi, int ally);
void interact_targets(Game& g, int pi, bool only_point, Codes& out);
bool is_point_marker_choice(Game& g, int32_t c);
void interact(Game& g, int pi, int32_t c);
int each_within(Game& g, int pi, int within, int* out);
int challenge_candidates(Game& g, const Frame& cf, int* out);
int adjacent_rivals(Game& g, int pi, int* out);
void push_options_for(Game& g, int pi, int target, int n, Codes& out);
void pull_seen_options(Game& g, int pi, int n, Codes& out);
void place_self_options(Game& g, int pi, int within, Codes& out);
void token_place_options(Game& g, int pi, int role, const int* squares, int nsq, Codes& out);
void token_options(Game& g, int pi, const StepDef& s, Codes& out);
void place_token(Game& g, int pi, int32_t c);
void minion_challenges(Game& g, int side, Codes& out);
bool status_in_play(Game& g, int card, int side);
int free_statuses(Game& g, int group, int side, int* out);
void give_status(Game& g, int pi, int card);
void token_off_options(Game& g, int side, Codes& out);
void token_off(Game& g, int side, int32_t c);
void shift_down_options(Game& g, int pi, const StepDef& s, Codes& out);

// precheck.cpp: the target pre-check of a challenge action (vocabulary.possible_target and each word's reach)
bool play_out(Game& g, int pi, int step, const Bits& squares, int seq, int rest);
bool rest_from(Game& g, int pi, const Bits& squares, int seq, int rest);
bool with_tokens_on(Game& g, int pi, int model, const Codes& options, int seq, int rest);
bool token_reach(Game& g, int pi, const StepDef& s, int step, const Bits& squares, int seq, int rest);
Reach step_reach(Game& g, int pi, int step, Bits& squares, int seq, int rest);
bool possible_target_from(Game& g, int pi, int seq, int from);

// words.cpp: each word's decision: its options, the option taken, what it does at once (vocabulary.Op)
void op_options(Game& g, const Frame& cf, Codes& out);
void op_apply(Game& g, const Frame& cf, int pi, int32_t c);
bool op_run(Game& g, int pi, const Frame& sf, const StepDef& s);
bool op_immediate(const StepDef& s);


// traits.cpp: traits as their card files give them (funkoverse.rules.vocabulary.traits)
void trait_effects(Game& g, int owner, int t, const TriggerDef* tr, const std::vector<EffectDef>& effects, bool say);
void react(Game& g, int when, int subject);
void status_given(Game& g, int pi, int card);
void trait_choices(Game& g, int owner, int t, int16_t step, Codes& out);
void trait_choose(Game& g, int owner, int t, int16_t step, int32_t c);
int trait_defense(Game& g, int pi, bool& any);
int trait_reach(Game& g, int pi, int purpose);
bool trait_links(Game& g, int pi, Links& links);
void trait_interactions(Game& g, int pi, const Bits& squares, Codes& out);
bool trait_interact(Game& g, int pi, int32_t c);

// steps.cpp: following an ability's steps (funkoverse.rules.steps)
void abort_steps(Game& g, int16_t why);
void frame_options(Game& g, const Frame& cf, Codes& out);
void apply_option(Game& g, const Frame& cf, int32_t c);
void run_steps(Game& g);

// draft.cpp: choosing characters and items in the game, and the reveal (funkoverse.rules.setup_phase)
void draft_options(Game& g, Codes& out);
void apply_draft(Game& g, int32_t c);
void reveal_draft(Game& g);
bool advance_draft(Game& g);

// menus.cpp: the legal choices, and one choice's legality (funkoverse.rules.menus, setup_phase)
void secret_options(Game& g, Codes& out);
void place_options(Game& g, Codes& out);
void return_options(Game& g, const Frame& f, Codes& out);
int companions_of(Game& g, int pi, int* out);
void companion_options(Game& g, int pi, Codes& out, bool free_only = false);
int first_challenge_targets(Game& g, int pi, const AbilityDef& a, int* out);
void ability_options(Game& g, int pi, Codes& out);
void item_options(Game& g, int pi, Codes& out);
void action_menu(Game& g, Codes& out);
int decider(const Rules& R, const State& S);
void legal(Game& g, Codes& out);

// engine.cpp: the turn and round machine and apply (funkoverse.rules.engine)
void set_first_player(Game& g, int side);
void choose(Game& g, int pi);
void turn_start(Game& g, int pi);
void companion_act(Game& g, int pi, int key);
void after_action(Game& g, int pi, const int16_t* had, int nhad);
void pay(Game& g, int pi, int ai, int target);
void end_turn(Game& g);
void apply_action(Game& g, int32_t c);
void run_round_end(Game& g);
bool pass_on(Game& g);
bool advance_secret(Game& g);
void advance(Game& g);
void scenario_knockout(Game& g, int by, int victim);
void apply_unchecked(Game& g, int32_t c);
bool is_legal(Game& g, int32_t c);

// small questions every file asks

inline void emit(Game& g, const Event& e) { g.ev->push_back(e); }

inline Event ev(uint8_t kind) {
    Event e;
    e.kind = kind;
    return e;
}

inline int16_t sq_or_none(int sq) { return int16_t(sq >= 0 ? sq : -1); }

inline int16_t pid_str(Game& g, int pi) { return g.S->pieces[pi].id; }

// The piece of a number among the game's pieces (number_of, kernel.hpp), -1 when not in play
inline int piece_at(Game& g, int number) {
    return number >= 0 && number < g.R->npieces ? piece_of(g, g.R->piece_id[number]) : -1;
}
// the track item that stands for piece `pi` (a character, companion or point marker)
inline int piece_track_item(Game& g, int pi) { return g.R->piece_track_item[number_of(*g.R, *g.S, pi)]; }

inline int16_t side_str(Game& g, int side) { return side >= 0 ? g.R->side_str[side] : g.R->s_empty; }

// world.is_rival
inline bool is_rival(const State& S, int pi, int of) {
    const Piece& p = S.pieces[pi];
    return rival_kind(p.kind) && p.side != S.pieces[of].side && pi != of;
}

inline int track_position(Game& g, int side, int item) { return g.S->sides[side].position(item); }

inline const StepDef& step_of(Game& g, int step) { return g.R->steps[step]; }

inline bool possible_target(Game& g, int pi, int seq, int from) { return possible_target_from(g, pi, seq, from); }

inline bool op_repeats(const StepDef& s) { return s.op == OP_CHALLENGE_EACH || s.op == OP_PUSH_EACH_ADJACENT_RIVAL; }

// menus.seat_before
inline int seat_before(Game& g, int side) { return (side - 1 + g.R->nsides) % g.R->nsides; }

}  // namespace fk
