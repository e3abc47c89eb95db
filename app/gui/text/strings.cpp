#include "app/gui/text/strings.h"

namespace ringviz::gui {

namespace {

// English. The default font covers Latin-1 only, so no arrows or ellipses here.
const UiStrings kEnglish = {
    .setup_title = "Setup",
    .caption_title = "Caption",
    .ring_title = "Ring",
    .round_table_title = "Transfers",
    .traffic_title = "Traffic",
    .controls_title = "Controls",
    .help_title = "Help",

    .operation = "Operation",
    .op_allgather = "AllGather",
    .op_reducescatter = "ReduceScatter",
    .op_allreduce = "AllReduce",
    .algorithm = "Algorithm",
    .algorithm_ring = "ring",
    .order = "Order",
    .order_seed = "seed",
    .order_nccl = "nccl",
    .order_explained =
        "seed follows the article's tables (GPU r sends slot r first); nccl starts one slot "
        "earlier, so that GPU r ends up owning slot r, as NCCL's ReduceScatter does.",
    .gpus = "GPUs",
    .gpus_hint = "Ctrl+click to type any number up to 256.",
    .count = "Count",
    .count_hint = "Elements each GPU starts with.",
    .dtype = "Type",
    .reduction = "Reduction",
    .reduction_unused = "AllGather only copies; it reduces nothing.",
    .input = "Input",
    .input_seed = "seed",
    .input_rank = "rank",
    .input_index = "index",
    .input_random = "random",
    .input_custom = "custom",
    .input_file = "file",
    .input_seed_explained = "GPU r, element i holds r*count + i + 1.",
    .input_rank_explained = "Every element of GPU r holds r + 1.",
    .input_index_explained = "Element i holds i on every GPU.",
    .input_random_explained = "Pseudo-random values from the seed below (the same on every run).",
    .input_custom_explained = "Your own values, from the table below.",
    .input_file_explained = "Values read from a JSON file given with --init file:PATH.",
    .random_seed = "Random seed",
    .value_table = "Input values",
    .value_table_hint = "Edit a value to make the inputs custom.",
    .value_table_too_big = "The value table appears when GPUs x count is at most 64.",
    .backend = "Backend",
    .backend_in_use = "Running on: %s",
    .view_section = "View",
    .theme = "Theme",
    .theme_dark = "dark",
    .theme_light = "light",
    .palette = "Rank colours",
    .palette_standard = "standard",
    .palette_colour_blind = "colour-blind safe",
    .text_size = "Text size",
    .setup_rejected = "Not applied: %s",

    .caption_start = "%s: before the first round",
    .caption_round = "Round %d of %d  -  %s",
    .caption_wave = "Wave %d of %d  -  %s",
    .caption_done = "%s: finished",
    .phase_reduce_scatter = "reduce-scatter",
    .phase_all_gather = "all-gather",
    .explain_start_allgather =
        "Each GPU holds only its own block (a capital letter); its other slots are still empty "
        "(hatched). In N-1 rounds every block walks once around the ring.",
    .explain_start_reducescatter =
        "Each GPU holds its whole input cut into N slots (a0 is GPU a's slot 0). In N-1 rounds "
        "%s walk around the ring until every GPU owns one fully reduced slot.",
    .explain_start_allreduce =
        "Each GPU holds its whole input cut into N slots. A reduce-scatter pass leaves every "
        "GPU owning one finished slot; an all-gather pass then hands the finished slots round.",
    .explain_reduce_round =
        "Every GPU sends one slot to its right-hand neighbour, which combines it with its own "
        "copy of that slot (reduce). Each %s gains one term per round.",
    .explain_reduce_last =
        "Last reduce-scatter round: every arriving %s picks up its final term, so each "
        "GPU now owns one complete slot (outlined). Its other slots are leftovers (dimmed).",
    .explain_gather_round =
        "Every GPU forwards a finished slot to its right-hand neighbour, which stores it "
        "unchanged (copy). Nothing is added any more: slots are only passed along.",
    .explain_gather_last =
        "Last all-gather round: the final copies land and every GPU holds the whole result.",
    .explain_done_allgather = "Every GPU now holds all N blocks, in rank order.",
    .explain_done_reducescatter =
        "Each GPU holds the full reduction of one slot (outlined); the dimmed %s can "
        "be dropped.",
    .explain_done_allreduce =
        "Every GPU holds the full reduction of every slot. Each one sent 2(N-1)/N of its buffer "
        "to get there, however many GPUs take part.",
    .explain_single_gpu = "With a single GPU there is nothing to exchange: the result is the input.",
    .phase_reduce = "reduce",
    .phase_broadcast = "broadcast",
    .phase_gather = "gather",
    .phase_scatter = "scatter",
    .start_holds_blocks =
        "Each GPU holds only its own block; the rest is empty (hatched).",
    .start_holds_slots =
        "Each GPU holds its input cut into N slots.",
    .plan_naive_allgather =
        "In %d rounds every GPU hands its block to GPU 0, which sends each GPU the blocks it lacks: "
        "GPU 0's link carries nearly all.",
    .plan_naive_reducescatter =
        "In %d rounds every GPU sends its buffer to GPU 0, which reduces everything and hands each GPU "
        "its slot: GPU 0's link carries N-1 buffers.",
    .plan_naive_allreduce =
        "In %d rounds every GPU sends its buffer to GPU 0, which reduces everything and sends the result "
        "back: N-1 buffers each way on GPU 0's link.",
    .plan_direct_allgather =
        "In one round every GPU sends its block straight to each other GPU: N-1 messages each, all at once.",
    .plan_direct_reducescatter =
        "In one round every GPU sends each slot straight to the GPU that owns it, which reduces what "
        "arrives: N-1 messages each.",
    .plan_direct_allreduce =
        "Round 1 sends every slot straight to its owner, which reduces it; round 2 sends every finished "
        "slot to every GPU: N-1 messages per GPU each time.",
    .plan_rhd_allgather =
        "Recursive doubling, %d rounds: partners ever farther apart swap all they hold, doubling it each "
        "round.",
    .plan_rhd_reducescatter =
        "Recursive halving, %d rounds: partners ever closer swap and reduce half of what they work on.",
    .plan_rhd_allreduce =
        "Halving in %d rounds (partners swap and reduce half their slots), then doubling in %d (they swap "
        "all they hold).",
    .plan_rhd_extra =
        "With %d GPUs, %d fold into a partner first and get the result last.",
    .plan_tree =
        "A binary tree rooted at GPU 0 (children of GPU r: 2r+1, 2r+2). In %d rounds the buffers are "
        "reduced up the tree level by level, then the result is copied down.",
    .plan_tree_pipelined =
        "The same binary tree, pipelined: slots go up one hop a round, one behind the other, so all levels "
        "work at once; then back down. %d rounds.",
    .round_to_root_reduce =
        "Every GPU but GPU 0 sends its whole buffer (%d slots) to GPU 0, which folds them in rank order "
        "(reduce): its link carries %d buffers.",
    .round_to_root_copy = "Every GPU but GPU 0 sends its block to GPU 0, which stores it (copy): GPU 0 now holds "
                          "all %d blocks.",
    .round_from_root_all =
        "GPU 0 sends the finished buffer to each of the other %d GPUs (copy), one after another over its one link.",
    .round_from_root_own = "GPU 0 sends each GPU r its finished slot r (copy).",
    .round_from_root_missing = "GPU 0 sends every other GPU the blocks it lacks (copy), %d blocks in all over its "
                               "one link.",
    .round_direct_reduce =
        "Every GPU sends each slot straight to its owner (slot j to GPU j), %d messages at once; the owner "
        "folds the %d arrivals in sender order (reduce).",
    .round_direct_gather =
        "Every GPU r sends its slot r straight to each of the %d other GPUs at once, which store it (copy).",
    .pair_apart = "GPUs %d apart",
    .pair_any = "Partner GPUs",
    .round_pair_reduce =
        "%s pair up (GPU %d with GPU %d, ...) and swap half of the slots they still work on: each sends %d "
        "slot(s) to its partner, which folds them in (reduce).",
    .round_pair_copy =
        "%s pair up (GPU %d with GPU %d, ...) and swap the finished slots they hold: each sends %d slot(s) to "
        "its partner, which stores them (copy), so what each holds doubles.",
    .round_fold_reduce =
        "%s fold their whole buffer into the GPU one above (reduce) and wait; the other %d GPUs, a power of "
        "two, go on in pairs.",
    .round_fold_copy =
        "%s hand their block to the GPU one above (copy) and wait; the other %d GPUs, a power of two, go on "
        "in pairs.",
    .round_unfold = "The GPUs that waited get their share back: %s each receive %d slot(s) from the GPU one above "
                    "(copy).",
    .round_tree_up =
        "The GPUs at depth %d of the tree send their whole buffer up to their parent (GPU %d to GPU %d, ...), "
        "which folds it in (reduce).",
    .round_tree_down =
        "The GPUs at depth %d copy the whole result down to their children (GPU %d to GPU %d, ...).",
    .round_pipe_up =
        "Slots climb the tree one hop a round: %d GPU(s) each send one slot up to their parent (GPU %d sends "
        "slot %d to GPU %d, ...), which folds it in (reduce).",
    .round_pipe_down =
        "Finished slots go down the tree one hop a round: %d GPU(s) each copy one slot to their children "
        "(GPU %d sends slot %d to GPU %d, ...).",
    .after_root_full = "GPU 0 now holds the full reduction of every slot.",
    .after_taking_part_own = "Each GPU taking part now owns its fully reduced slots (outlined).",
    .after_owns = "After this round each GPU owns one fully reduced slot (outlined).",
    .after_all_hold = "After this round every GPU holds the whole result.",
    .done_allreduce_plain = "Every GPU holds the full reduction of every slot.",
    .done_busiest =
        "The busiest GPU sent %s.",
    .pipeline_wave = "Slices of rounds %d to %d travel at once; round %d:",
    .list_pair = "%s and %s",
    .list_comma = ", ",

    .gpu_name = "GPU %d",
    .gpu_short = "%d",
    .cell_tooltip = "GPU %d, slot %d",
    .cell_empty = "empty: nothing has arrived here yet",
    .cell_contributors = "%d contributing GPU(s)",
    .cell_elements = "%lld element(s)",
    .cell_owned = "owned by this GPU",
    .cell_stale = "stale %s, no longer needed",
    .cell_no_elements = "this slot has no elements (count < GPUs)",

    .table_round = "Round",
    .table_wave = "Wave",
    .table_phase = "Phase",
    .table_transfer = "Send",
    .table_slot = "Slot",
    .table_kind = "Kind",
    .table_bytes = "Bytes",
    .kind_copy = "copy",
    .kind_reduce = "reduce",
    .table_hint = "Click a row to highlight its sending GPU.",
    .table_no_rounds = "No rounds: a single GPU exchanges nothing.",

    .traffic_gpu = "GPU",
    .traffic_sent = "Sent",
    .traffic_received = "Received",
    .traffic_total = "All GPUs",
    .traffic_after = "After %d of %d rounds",
    .traffic_after_waves = "After %d of %d waves",
    .traffic_formula_allreduce = "%s sends, per GPU:  2(N-1)/N x M",
    .traffic_formula_pass = "%s sends, per GPU:  (N-1)/N x M",
    .traffic_formula_values = "= 2 x (%d-1)/%d x %s = %s",
    .traffic_formula_pass_values = "= (%d-1)/%d x %s = %s",
    .traffic_m_allgather = "M = the gathered output of one GPU (N x count x element size)",
    .traffic_m_other = "M = one GPU's buffer (count x element size)",
    .traffic_measured = "Measured per GPU at the end: %s",
    .traffic_exact_note = "(exact when N divides the element count)",
    .traffic_rhd_note = "(N a power of two; with %d GPUs the ones that take in a partner send more)",
    .traffic_naive_allreduce = "%s: GPU 0 sends (N-1) x M, the others M",
    .traffic_naive_allreduce_values = "= (%d-1) x %s = %s from GPU 0",
    .traffic_naive_reducescatter = "%s: every GPU but GPU 0 sends M, GPU 0 (N-1)/N x M",
    .traffic_naive_reducescatter_values = "= %s from every GPU but GPU 0; GPU 0: %s",
    .traffic_naive_allgather = "%s: GPU 0 sends (N-1)(N-1)/N x M, the others M/N",
    .traffic_naive_allgather_values = "= (%d-1)(%d-1)/%d x %s = %s from GPU 0",
    .traffic_tree = "%s: M up to its parent, M down to each child",
    .traffic_tree_values = "busiest, GPU %d: %d x %s = %s",

    .reset = "Reset",
    .step_back = "< Back",
    .play = "Play",
    .pause = "Pause",
    .step_forward = "Step >",
    .go_to_end = "End",
    .loop = "Loop",
    .speed = "Speed",
    .help_button = "Help (H)",
    .timeline_hint = "Drag to scrub; markers are rounds (orange: %s, blue: %s).",
    .notice_prefix = "Note: ",

    .help_keys_heading = "Keys",
    .help_guide_heading = "How to read the view",
    .help_legend_heading = "Cells",
    .key_space = "Space\tplay / pause",
    .key_arrows = "Right / Left\tstep one round forward / back",
    .key_home_end = "Home / End\tgo to the start / the end",
    .key_speed = "+ / -\tdouble / halve the speed (0.25x to 8x)",
    .key_fullscreen = "F\tfullscreen on / off",
    .key_quit = "Ctrl+Q\tquit (the window's close button too)",
    .key_help = "H\tshow / hide this window",
    .key_ops = "1 / 2 / 3\tAllGather / ReduceScatter / AllReduce",
    .key_mouse = "Click\ta table row or a GPU box highlights that GPU",
    .guide_text =
        "Each box is one GPU and each cell inside it one slot of its buffer. Arrows show who "
        "sends to whom: GPU r always sends to GPU r+1, and the last GPU sends to GPU 0. In every "
        "round all GPUs send at the same time, one slot each; the packets you see moving are "
        "those slots. The caption says what the round does, the table lists its transfers and "
        "the traffic panel adds up the bytes. Change anything in Setup and the collective is "
        "rebuilt at once, keeping the current round where it still exists.",
    .guide_text_other =
        "Each box is one GPU and each cell inside it one slot of its buffer. With %s every round has its own "
        "pattern of senders and receivers: the packets you see moving are the slots sent in the round on "
        "screen, and the caption names who sends what to whom. The table lists the round's transfers and the "
        "traffic panel adds up the bytes. Change anything in Setup and the collective is rebuilt at once, "
        "keeping the current round where it still exists.",
    .legend_colour = "A colour names the GPU whose input the slot holds.",
    .legend_stripes = "Stripes: a %s, one stripe per GPU folded in so far.",
    .legend_hatch = "Hatched: empty, nothing has arrived yet.",
    .legend_dim = "Dimmed: a %s the GPU no longer needs.",
    .legend_outline = "Outlined: the slot this GPU owns after reduce-scatter.",
    .legend_heat = "Large slots show their values as a heat strip (dark = low, bright = high).",

    .language = "Language",
    .theme_high_contrast = "high contrast",
    .presentation_mode = "Presentation mode (P)",
    .presentation_size = "Presentation text size",
    .predict_mode = "Predict mode (G)",
    .predict_question = "Before round %d: which slot of GPU %d will change? Click that cell.",
    .predict_hint = "The round plays as soon as you answer.",
    .predict_pick_gpu = "Pick a cell of GPU %d, the outlined one.",
    .predict_correct = "Right! GPU %d received slot %d, which now holds %s.",
    .predict_wrong = "Not quite: GPU %d received slot %d (now %s); you picked slot %d.",
    .predict_score = "Score: %d of %d",
    .predict_finished = "Every round answered. Final score: %d of %d",
    .key_present = "P\tpresentation mode: large text, high contrast, no setup panel",
    .key_present_size = "[ / ]\tpresentation text smaller / larger (1.5x to 3x)",
    .key_predict = "G\tpredict mode: guess each round before it plays",
    .key_language = "L\tswitch language (English / Chinese)",
    .font_missing = "Chinese font not found at %s (install fonts-wqy-microhei); showing English.",

    .view_ring = "Ring",
    .view_memory = "Memory",
    .view_training = "Training",
    .view_compare = "Compare",
    .memory_model = "Model",
    .memory_gpus = "GPUs##memory",
    .memory_gpus_hint = "Data-parallel GPUs. Ctrl+click to type up to 64.",
    .memory_capacity = "GPU memory",
    .memory_capacity_item = "%.0f GB",
    .memory_convention = "Bytes counted",
    .memory_convention_assumes = "%s In the formulas P is the number of parameters.",
    .memory_next_to_ddp = "Next to DDP:",
    .memory_bucket = "Bucket MiB",
    .memory_bucket_hint = "Backward hands its gradients to the collective in buckets of this size (PyTorch DDP's default: 25 MiB).",
    .memory_start = "Start",
    .memory_model_states = "Model states",
    .memory_model_states_hint = "The optimizer step: everything a GPU keeps between iterations (what `ringviz memory` prints).",
    .memory_step = "step %d of %d",
    .memory_column_formula = "%s = %s per GPU at rest",
    .memory_fits = "fits in %s",
    .memory_does_not_fit = "does not fit in %s",
    .memory_axis = "GB",
    .memory_largest_bar = "largest: GPU %d, %s",
    .memory_capacity_line = "GPU memory %s",
    .memory_step_label = "Step %d: %s",
    .memory_open_in_ring = "Open in ring view",
    .memory_opened_notice = "Ring view: %s; the bucket's %lld elements are shown as %lld, same rounds, smaller numbers.",
    .memory_collective_size = "%lld elements of %s",
    .memory_peak = "Peak %s on GPU %d %s",
    .memory_peak_cause = "at step %d (%s): %s",
    .memory_peak_on_top = "%s on top of the parameters and optimizer states",
    .memory_peak_resident_only = "only the parameters and optimizer states",
    .memory_peak_part = "%s (%s)",
    .memory_peak_and = "%s and %s",
    .memory_parameters = "parameters",
    .memory_optimizer_states = "optimizer states",
    .memory_gradients = "gradients",
    .memory_transient = "transient buffers",
    .memory_legend_owned = "in a GPU's colour: the shard only that GPU keeps",
    .memory_sent_per_iteration = "sends %s per GPU per iteration",
    .memory_sent_so_far = "%s sent so far",
    .memory_sent_compact = "sent %s of %s",
    .memory_sent_short = "%s per iteration",
    .memory_at_rest_words = "At rest: the model states kept between iterations",
    .memory_same_traffic = "%s holds %s per GPU at rest, %s of %s's %s, and sends the same %s per GPU per iteration.",
    .memory_more_traffic = "%s holds %s per GPU at rest, %s of %s's %s, and sends %s per GPU per iteration against %s.",
    .memory_ring_shows = "Ring: %s (%s)",
    .memory_ring_compute = "Ring: idle while %s computes",
    .memory_ring_at_rest = "Ring: press Space to step through the iteration",
    .memory_view_too_small = "Too small for the memory chart: enlarge the window or lower the text size.",
    .training_gpus = "GPUs##training",
    .training_dtype = "Precision",
    .training_dtype_hint = "f32: everything in fp32. bf16: bf16 parameters and gradients with fp32 master weights and optimizer state.",
    .training_iterations = "Iterations",
    .training_seed = "Seed",
    .training_shown = "iteration %d of %d",
    .training_explained =
        "The same MLP (%lld parameters) trained on %d simulated GPUs, each on its own mini-batches; every "
        "byte between GPUs goes through ringviz's collectives. DDP all-reduces the gradients, ZeRO-2 "
        "reduce-scatters them and all-gathers the parameters, nosync exchanges nothing.",
    .training_ddp = "DDP",
    .training_zero2 = "ZeRO-2",
    .training_nosync = "no sync",
    .training_loss_title = "loss per GPU (log scale)",
    .training_axis_iterations = "iteration (of %d)",
    .training_mean_loss = "mean loss %s",
    .training_spread_title = "Parameter spread",
    .training_spread_hint = "the largest difference of one parameter between two GPUs",
    .training_not_started = "not started",
    .training_identical = "after %d iterations every GPU holds bit-identical parameters",
    .training_drifted = "after %d iterations the GPUs disagree by up to %s",
    .training_too_small = "Too small for the training plots: enlarge the window or lower the text size.",
    .compare_question = "%s of %lld x %s per GPU (%s) on %d GPUs, from the setup panel",
    .compare_link = "Link",
    .compare_link_figures = "alpha %.2f us, %.0f GB/s per direction",
    .compare_algorithm = "Algorithm",
    .compare_rounds = "Rounds",
    .compare_messages = "Messages",
    .compare_sent = "Sent per GPU",
    .compare_busiest = "Busiest link",
    .compare_time = "Predicted",
    .compare_link_in = "%s to GPU %d",
    .compare_link_out = "%s from GPU %d",
    .compare_table_hint = "Messages and bytes: the most any one GPU sends. * = fastest at this size. Click a row to run that algorithm.",
    .compare_plot_title = "Predicted time against message size (bytes per GPU, log-log)",
    .compare_this_size = "now",
    .compare_crossover = "%s from %s",
    .compare_axis_hint = "Rings win on bandwidth for large messages; few rounds win on latency for small ones.",
    .compare_no_crossover = "No crossover: %s is the fastest at every size here.",
    .compare_too_small = "Too small for the comparison: enlarge the window or lower the text size.",
    .link_title = "Links in round %d of %d (%s)",
    .link_no_rounds = "No rounds: one GPU has nobody to talk to.",
    .link_hint = "Each arrow is a link carrying bytes in this round, coloured and thickened by how many. Step the controls below to move through the rounds.",
    .link_scale_top = "%s",
    .link_round_summary = "%d links busy; the busiest carries %s",
    .view_devices = "Devices",
    .devices_host_memory = "CPU backend: every GPU of the ring is a buffer in host memory, and every transfer is a copy "
                           "between two of them.",
    .devices_column_device = "Device",
    .devices_column_name = "Name",
    .devices_column_ringviz = "ringviz",
    .devices_column_used = "Used / total",
    .devices_device = "device %d",
    .devices_used_of_total = "%s / %s",
    .devices_placement = "Where each GPU of the ring lives",
    .devices_rank_on = "GPU %d: device %d",
    .devices_cells = "Cells: %s",
    .devices_round = "Round %d of %d: how each transfer travels",
    .devices_wave = "Wave %d of %d: how each transfer travels",
    .devices_no_rounds = "No rounds: nothing is transferred.",
    .devices_transfer = "GPU %d -> GPU %d: %s, %s",
    .devices_route = {"host memory", "within one device", "peer-to-peer", "through the host"},
    .devices_times = "Measured round times (%s)",
    .devices_clock_cuda = "CUDA events",
    .devices_clock_host = "host clock",
    .devices_clock_recorded = "the recorded run",
    .devices_no_times = "This backend does not time its rounds.",
    .devices_column_round = "Round",
    .devices_column_time = "Time",
    .devices_not_run = "not run yet",
    .reduction_partial = {"partial sum", "partial product", "running maximum", "running minimum", "partial sum"},
    .reduction_partials = {"partial sums", "partial products", "running maxima", "running minima", "partial sums"},
    .reduction_explained =
        {"Here the values add: a0+b0.",
         "Here the values multiply: a0\xC3\x97" "b0.",
         "Here the larger value stays: max(a0,b0).",
         "Here the smaller value stays: min(a0,b0).",
         "avg adds like sum; the GPU adding the last term divides by N: mean(a0,...,d0)."},
    .reduction_kind = {"reduce", "reduce \xC3\x97", "reduce max", "reduce min", "reduce avg"},
    .ring_algorithm_title = "Ring",
    .traffic_formula_other = "For comparison, not what runs here:",
    .window_too_small = "Window too small: make it at least %d x %d pixels.",
    .view_too_small = "Too small to draw these GPUs: enlarge the window, lower the text size, or choose fewer GPUs.",
    .replay_title = "Replaying %s (%s, %s on %s)",
    .replay_title_trace = "Replaying %s (%s, %s)",
    .replay_rank_words = {"1 rank", "%d ranks"},
    .replay_host_words = {"1 host", "%d hosts"},
    .replay_close = "Close",
    .replay_locked = "The setup is the recorded run's: close it to edit a collective again.",
    .replay_pacing = "Pacing",
    .replay_pacing_names = {"measured", "even"},
    .replay_no_times = "No measured times in this trace: every round plays as long.",
    .replay_mismatch = "Round %d: the recorded buffers differ from this program's engine (GPU %d, element %lld: recorded %s, computed %s).",
    .integer_overflow = "%s %s overflows at element %lld: exact %s",
    .replay_output_mismatch = "The recorded outputs differ from this program's engine (GPU %d, output element %lld: recorded %s, computed %s).",
    .replay_round_time = "round %d: %s",
    .replay_round_wait = "; GPU %d waited %s for GPU %d",
    .timeline_spans = {"send", "delay", "wait", "reduce, finish"},
    .timeline_row = "GPU %d  %s",
    .timeline_tooltip = "GPU %d on %s, round %d\nstart %s, posted %s, arrived %s, end %s\ndelay %s, wait %s",
    .hosts_legend = "Hosts:",
    .open_title = "Open a recorded run",
    .open_button = "Open",
    .open_path_hint = "run.json (a trace or a capture)",
    .open_found = "Captures shipped with ringviz:",
    .memory_mode_states = "Model states: DDP beside ZeRO",
    .memory_mode_iteration = "Whole iteration: a transformer",
    .iteration_model = "Model",
    .iteration_custom = "custom",
    .iteration_layers = "Layers",
    .iteration_hidden = "Hidden",
    .iteration_heads = "Heads",
    .iteration_vocab = "Vocabulary",
    .iteration_params = "Parameters (B)",
    .iteration_strategy = "Strategy",
    .iteration_seq = "Sequence",
    .iteration_micro_batch = "Micro-batch",
    .iteration_recompute = "Recompute",
    .iteration_recompute_names = {"none", "selective", "full"},
    .iteration_offload = "Offload",
    .iteration_offload_names = {"none", "optimizer"},
    .iteration_accelerator = "Accelerator",
    .iteration_peak_button = "Peak",
    .iteration_moment = "%d / %d: %s",
    .iteration_event_start = "start: model states only",
    .iteration_event_forward = "forward through layer %lld of %lld",
    .iteration_event_loss = "loss: the logits join every layer's activations",
    .iteration_event_backward = "backward through layer %lld of %lld",
    .iteration_event_rerun = "backward through layer %lld of %lld, its forward run again",
    .iteration_event_step = "optimizer step",
    .iteration_event_step_host = "optimizer step on the host; parameters come back over PCIe",
    .iteration_event_gather = "all-gather of the updated parameters",
    .iteration_activations = "activations",
    .iteration_logits = "logits",
    .iteration_buffers = "buffers",
    .iteration_peak = "Peak %s per GPU at \"%s\": %s.",
    .iteration_peak_cause = "%s (%s) on top of %s of weights and optimizer states",
    .iteration_peak_cause_and_gradients = "%s (%s) and gradients (%s) on top of %s of weights and optimizer states",
    .iteration_peak_states_only = "the model states alone (%s)",
    .iteration_fits = "Fits in %s: %s to spare",
    .iteration_does_not_fit = "Does not fit in %s: over by %s",
    .iteration_host = "Host memory for the offloaded optimizer: %s per GPU, %s per machine; PCIe %s per GPU per iteration",
    .iteration_sawtooth = "Memory through the iteration: activations rise in forward, fall in backward",
    .iteration_time = "Time per iteration (an estimate): %s",
    .iteration_time_parts = {"compute", "recompute", "communication not hidden", "offload not hidden"},
    .iteration_time_hidden = "Communication takes %s in all and PCIe %s; the bar counts only what compute does not hide.",
    .iteration_caveat = "Activations: Korthikanti et al. 2022, 16-bit, no tensor parallelism; the 34 and 5 come from a GPT block, an approximation for others.",
    .iteration_same_on_every_gpu = "Every GPU holds the same, up to a shard's rounding: the bars show the fullest.",
    .iteration_strategies = "Peak per GPU under each strategy, one scale:",
    .iteration_too_small = "Too small for the iteration's charts: enlarge the window or lower the text size.",
    .iteration_audience_summary = "%s (%s parameters), %s on %d GPUs of %s, sequence %lld x micro-batch %lld, recomputation: %s, offloading: %s",
    .compare_topology = "Topology",
    .compare_topology_star = "star",
    .compare_computing = "computing...",
    .compare_sentence_one = "On %s, %s is the fastest at every size from %s to %s.",
    .compare_sentence_start = "On %s, %s is the fastest at %s",
    .compare_sentence_change = "; %s overtakes %s from %s",
    .compare_sentence_end = "; at %s, %s is the fastest.",
    .link_topology_title = "Links in step %d of %d (%s on %s)",
    .link_topology_hint = "Boxes are GPUs and switches, lines the links (one per direction), coloured by the bytes they carry in this step. Step with the controls below.",
    .link_shared_by = "shared by %d",
    .link_legend_idle = "idle",
    .link_legend_shared = "shared by 2 or more transfers",
    .link_legend_gpu = "GPU",
    .link_legend_switch = "switch",
    .link_topology_summary = "%d links busy, %d shared; the busiest carries %s",
    .pipeline_mode = "Rounds",
    .pipeline_lock_step = "lock-step",
    .pipeline_pipelined = "pipelined",
    .pipeline_explained = "Lock-step: every GPU sends a whole slot, then all wait. Pipelined (NCCL): each slot "
                          "is cut into slices that stream around the ring, over parallel channels.",
    .slices = "Slices",
    .slices_hint = "Pieces each slot is sent in. Ctrl+click to type up to %d.",
    .channels = "Channels",
    .channels_hint = "Parallel rings, each carrying its part of every slot. Ctrl+click to type up to %d.",
    .key_pipeline = "S\tlock-step rounds / pipelined (slices and channels)",
    .wave_title = "Wave %d of %d: %s; %s",
    .wave_in_flight = {"1 slice in flight on every busy link", "%d slices in flight on every busy link"},
    .wave_in_flight_with_elements = {"1 slice with elements in flight on every busy link",
                                     "%d slices with elements in flight on every busy link"},
    .wave_stages = {"the pipeline is filling", "the pipeline is full", "the pipeline is draining",
                    "only pieces without elements move (0 B)"},
    .wave_empty_pieces = "%lld of %lld pieces hold no elements (count %lld < %lld)",
    .pipeline_empty_notice = "%lld of %lld pieces hold no elements: count %lld is below %lld (GPUs x channels x "
                             "slices; channels x slices for AllGather). Their transfers move 0 B, and the "
                             "pipeline never carries more than the slices that hold elements.",
    .pipeline_fill_count = "Set count to %lld",
    .channel_shown = "Channel",
    .channel_all = "all",
    .channel_number = "channel %d",
    .piece_tooltip = "channel %d, slice %d: %s",
    .piece_no_elements = "no elements (0 B)",
    // ---- zhgui ----
    .lesson_bar_none = "(no lesson)",
    .lesson_bar_previous = "Previous scene",
    .lesson_bar_next = "Next scene",
    .lesson_bar_play = "Play lesson",
    .lesson_bar_pause = "Pause lesson",
    .lesson_bar_scene = "Scene %d of %d",
    .lesson_scene_failed = "lesson scene %d could not be shown",
    .record_button = "Record",
    .record_tooltip = "Record the window to a video file (%d fps) in the current folder",
    .record_stop = "Stop",
    .record_counter = "REC %02lld:%02lld  frame %lld",
    .record_target = "Recording to %s",
    .record_done = "recorded %lld frames to %s",
    .record_failed = "recording failed: %s",
    .record_resized = "the window changed size, so the recording stopped",
    .backend_no_cuda_build = "using the CPU backend: this build has no CUDA backend",
    .backend_cpu_fallback_reason = "using the CPU backend: %s",

    // ---- stage ----
    .stage_recap = "In this lesson",
    .stage_made_with = "Made with ringviz",

    // ---- quiet ----
    .backend_cpu_fallback = "CPU (no CUDA device)",
    .backend_cpu_short = "CPU",
    .backend_heading = "Backend",
    .copy_command = "Copy command",
    .copy_command_tooltip = "Copy the ringviz command line that opens this view: operation, GPUs, inputs, view, "
                            "round, language and mode",
    .copy_command_title = "Command for this view",
    .copy_command_copied = "Copied to the clipboard. Select the text to copy it by hand.",
    .copy_command_close = "Close",

    // ---- fixgui ----
    .backend_cpu_no_cuda_build = "CPU (no CUDA in this build)",
};

Language g_language = Language::en;

// Chinese with English wherever a translation is still missing (a field added to UiStrings
// and to kEnglish, but not yet to kUiStringsZh), so that new text never shows up as a crash.
const UiStrings& chinese_or_english() {
  static const UiStrings merged = [] {
    UiStrings strings = kUiStringsZh;
    static_assert(sizeof(UiStrings) % sizeof(const char*) == 0, "UiStrings holds const char* only");
    auto* fields = reinterpret_cast<const char**>(&strings);
    const auto* english = reinterpret_cast<const char* const*>(&kEnglish);
    for (std::size_t i = 0; i < sizeof(UiStrings) / sizeof(const char*); ++i)
      if (fields[i] == nullptr) fields[i] = english[i];
    return strings;
  }();
  return merged;
}

}  // namespace

const UiStrings& ui_strings_for(Language language) {
  return language == Language::zh ? chinese_or_english() : kEnglish;
}
const UiStrings& ui_strings() { return ui_strings_for(g_language); }
Language ui_language() { return g_language; }
void set_ui_language(Language language) { g_language = language; }

}  // namespace ringviz::gui
