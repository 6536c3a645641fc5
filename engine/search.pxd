# The typed search of engine/search.py: the searcher is an extension type whose
# node functions are C methods, and positions are called through the C vtable of
# the typed base engine.position.Position.

from engine.position cimport Position
from engine.tt cimport TranspositionTable, value_from_tt, value_to_tt

cdef int _result_score(int result, int ply) noexcept
cdef _gravity(dict table, long long move, int bonus)
cdef _gravity_after(dict tables, long long prev, long long move, int bonus, list quiets_tried)

cdef class Searcher:
    # Shared with the other workers of a search: the table, the go's control.
    cdef public TranspositionTable tt
    cdef public object control
    cdef object tb_probe, tb_report
    cdef int tb_probe_depth
    # This worker's own: counters, move ordering, the per-ply stack, the root.
    cdef public long long nodes, node_limit, next_check, tbhits
    cdef public int seldepth, extension_plies
    cdef public list history, pv_table, root_moves
    cdef long long[::1] killers
    cdef long long[::1] tt_move_at
    cdef signed char[::1] in_check_at
    cdef signed char[::1] futile_at
    cdef signed char[::1] lmr
    cdef public list capture_hist, cont_hist, follow_hist
    cdef int[::1] correction
    cdef long long[::1] move_at
    cdef int[::1] static_at
    cdef long long[::1] corr_at
    cdef long long[::1] excluded_at
    cdef signed char[::1] singular_at
    cdef long long[::1] key_a, key_b
    cdef int[::1] order
    cdef public bint capt_on, cont_on, corr_on, se_on, pc_on, pc_noisy, lazy_on, follow_on
    cdef public int pc_depth, qs_delta, razor, hist_red
    cdef int[::1] pc_shallow, pc_up, pc_down
    cdef public object pc_source
    # The tunable numbers (configure).
    cdef public int aspiration_delta, null_base, null_divisor, rfp_margin, rfp_max_depth
    cdef public int futility_margin, see_quiet, see_noisy, lmp_base
    # The running search: the caller's position, and the one the tree walks.
    cdef public object pos
    cdef public Position node
    cdef public object partial
    cdef public bint null_ok
    # The tree listener (None in play), the move that led to the node being entered.
    cdef public object trace
    cdef public long long trace_move
    cdef public bint trace_pass

    cdef int _checkpoint(self, int ply) except -1
    cdef int _search(self, int depth, int alpha, int beta, int ply, bint null_ok) except -2000000000
    cdef int _move_loop(self, list moves, int depth, int alpha, int beta, int ply) except -2000000000
    cdef list _stage(self, int stage, list moves, long long tt_move, long long excluded, int ply, list losing)
    cdef _keys(self, Py_ssize_t n)
    cdef list _ranked(self, list moves)
    cdef _reward(self, long long move, int depth, int ply, int side, list quiets_tried)
    cdef long long _history_after(self, dict tables, int at, long long move) except? -1
    cdef int _history_plies(self, long long move, int ply, int side) except? -100
    cdef _capture_reward(self, long long move, int depth, int side, list noisy_tried)
    cdef int _corrected(self, int ply) except? -2000000000
    cdef _correct(self, int ply, int diff, int depth)
    cdef int _qsearch(self, int alpha, int beta, int ply, int qply) except -2000000000

