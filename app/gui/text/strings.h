#pragma once
// Every piece of text the GUI shows, in one place, so that a translation is one more
// instance of UiStrings. Formats use printf conversions; keep their order when translating
// (or use %1$s-style positions, which glibc's printf accepts).
#include "core/model/text.h"

namespace ringviz::gui {

struct UiStrings {
  // Window and panel titles
  const char* setup_title;
  const char* caption_title;
  const char* ring_title;
  const char* round_table_title;
  const char* traffic_title;
  const char* controls_title;
  const char* help_title;

  // Setup panel
  const char* operation;
  const char* op_allgather;
  const char* op_reducescatter;
  const char* op_allreduce;
  const char* algorithm;
  const char* order;
  const char* order_seed;
  const char* order_nccl;
  const char* order_explained;
  // Under the algorithm when it reduces inside an NVSwitch (nvls): the machine it assumes.
  const char* switch_algorithm_notice;
  const char* gpus;
  const char* gpus_hint;
  const char* root;       // Broadcast's source GPU
  const char* root_hint;
  const char* splits_shown;  // an uneven AllToAll's splits, %s as --splits writes them
  const char* splits_even;   // the button that makes them even
  const char* count;
  const char* count_hint;
  const char* dtype;
  const char* reduction;
  const char* reduction_unused;
  const char* input;
  const char* input_seed;
  const char* input_rank;
  const char* input_index;
  const char* input_random;
  const char* input_custom;
  const char* input_file;
  const char* input_seed_explained;
  const char* input_rank_explained;
  const char* input_index_explained;
  const char* input_random_explained;
  const char* input_custom_explained;
  const char* input_file_explained;
  const char* random_seed;
  const char* value_table;
  const char* value_table_hint;
  const char* value_table_too_big;
  const char* backend;
  const char* backend_in_use;  // %s backend name
  const char* view_section;
  const char* theme;
  const char* theme_dark;
  const char* theme_light;
  const char* palette;
  const char* palette_standard;
  const char* palette_colour_blind;
  const char* text_size;
  const char* setup_rejected;  // %s reason

  // Caption
  const char* caption_start;           // %s operation name
  const char* caption_round;           // %d round, %d rounds, %s phase
  const char* caption_wave;            // %d wave, %d waves, %s phase (pipelined schedules)
  const char* caption_done;            // %s operation name
  const char* phase_reduce_scatter;
  const char* phase_all_gather;
  const char* explain_done_allgather;
  const char* explain_done_reducescatter;
  const char* explain_single_gpu;
  // The words of captions every algorithm shares (text/round_caption.cpp): phases, what every
  // GPU holds at the start, what holds after a phase, the end. Each algorithm's own sentences
  // are in its unit (core/algorithms/).
  const char* phase_reduce;
  const char* phase_broadcast;
  const char* phase_all_to_all;
  const char* phase_gather;
  const char* phase_scatter;
  const char* start_holds_blocks;
  const char* start_holds_slots;
  const char* after_root_full;
  const char* after_taking_part_own;
  const char* after_owns;
  const char* after_all_hold;
  const char* after_all_to_all;  // AllToAll's last round
  const char* after_all_to_all_uneven;  // uneven AllToAll's last round
  const char* done_all_to_all;
  const char* done_all_to_all_uneven;
  const char* done_allreduce_plain;
  const char* done_busiest;               // %s bytes
  const char* pipeline_wave;              // %d first round, %d last round, %d first round

  // Ring view
  const char* gpu_name;     // %d rank
  const char* gpu_short;    // %d rank (tiny boxes)
  const char* switch_title;  // the NVSwitch box of an in-switch reduction (nvls)
  const char* switch_short;  // ... where the title does not fit
  const char* cell_tooltip; // %d rank, %d slot
  const char* cell_pair_tooltip;  // an uneven AllToAll's slot: %d rank, %d slot, %d sender, %d receiver
  const char* cell_empty;
  const char* cell_contributors;  // %d count
  const char* cell_elements;      // %lld count
  const char* cell_owned;
  const char* cell_stale;
  const char* cell_no_elements;

  // Round table
  const char* table_round;
  const char* table_wave;  // the same column when the rounds are a pipeline's waves
  const char* table_phase;
  const char* table_transfer;
  const char* table_slot;
  const char* table_slot_lane;       // %s slot, %s lane name: a lock-step transfer of one half ("1 clockwise half")
  const char* table_kind;
  const char* table_bytes;
  const char* kind_copy;
  const char* kind_reduce;
  const char* table_hint;
  const char* table_no_rounds;

  // Traffic
  const char* traffic_gpu;
  const char* traffic_sent;
  const char* traffic_received;
  const char* traffic_total;
  const char* traffic_after;         // %d rounds done, %d rounds
  const char* traffic_after_waves;   // the same when the schedule is pipelined: %d waves done, %d waves
  const char* traffic_m_allgather;
  const char* traffic_m_other;
  const char* traffic_measured;        // %s bytes
  const char* traffic_exact_note;
  const char* traffic_uneven;  // an uneven AllToAll, in place of the formula

  // Controls
  const char* reset;
  const char* step_back;
  const char* play;
  const char* pause;
  const char* step_forward;
  const char* go_to_end;
  const char* loop;
  const char* speed;
  const char* help_button;
  const char* timeline_hint;  // %s orange phase, %s blue phase
  const char* notice_prefix;

  // Help
  const char* help_keys_heading;
  const char* help_guide_heading;
  const char* help_legend_heading;
  const char* key_space;
  const char* key_arrows;
  const char* key_home_end;
  const char* key_speed;
  const char* key_fullscreen;
  const char* key_quit;
  const char* key_help;
  const char* key_ops;
  const char* key_mouse;
  const char* guide_text;
  const char* guide_text_other;  // %s algorithm: the guide where the ring does not run
  const char* legend_colour;
  const char* legend_stripes;
  const char* legend_hatch;
  const char* legend_dim;
  const char* legend_outline;
  const char* legend_heat;

  // Classroom: language, presentation and predict modes
  const char* language;
  const char* theme_high_contrast;
  const char* presentation_mode;
  const char* presentation_size;
  const char* predict_mode;
  const char* predict_question;   // %d round, %d GPU
  const char* predict_hint;
  const char* predict_pick_gpu;   // %d GPU
  const char* predict_correct;    // %d GPU, %d slot, %s what it holds now
  const char* predict_wrong;      // %d GPU, %d slot, %s what it holds now, %d the slot picked
  const char* predict_score;      // %d right, %d answered
  const char* predict_finished;   // %d right, %d answered
  const char* key_present;
  const char* key_present_size;
  const char* key_predict;
  const char* key_language;
  const char* font_missing;       // %s font path

  // Centre views: the tabs, memory, training, compare and link views
  const char* view_ring;
  const char* view_memory;
  const char* view_training;
  const char* view_compare;
  const char* memory_model;
  const char* memory_gpus;
  const char* memory_gpus_hint;
  const char* memory_capacity;
  const char* memory_capacity_item;       // %.0f GB
  const char* memory_convention;
  const char* memory_convention_assumes;  // %s what the convention assumes
  const char* memory_next_to_ddp;
  const char* memory_bucket;
  const char* memory_bucket_hint;
  const char* memory_start;
  const char* memory_model_states;
  const char* memory_model_states_hint;
  const char* memory_step;                // %d step, %d steps
  const char* memory_column_formula;      // %s formula, %s bytes
  const char* memory_fits;                // %s capacity
  const char* memory_does_not_fit;        // %s capacity
  const char* memory_axis;
  const char* memory_largest_bar;         // %d GPU, %s bytes
  const char* memory_capacity_line;       // %s capacity
  const char* memory_step_label;          // %d step, %s what it does
  const char* memory_open_in_ring;
  const char* memory_opened_notice;       // %s purpose, %lld elements, %lld elements shown
  const char* memory_collective_size;     // %lld elements, %s type
  const char* memory_peak;                // %s bytes, %d GPU, %s cause
  const char* memory_peak_cause;          // %d step, %s what it does, %s what sits on top
  const char* memory_peak_on_top;         // %s the parts
  const char* memory_peak_resident_only;
  const char* memory_peak_part;           // %s part, %s bytes
  const char* memory_peak_and;            // %s part, %s part
  const char* memory_parameters;
  const char* memory_optimizer_states;
  const char* memory_gradients;
  const char* memory_transient;
  const char* memory_legend_owned;
  const char* memory_sent_per_iteration;  // %s bytes
  const char* memory_sent_so_far;  // %s bytes
  const char* memory_sent_compact;  // so far, per iteration
  const char* memory_sent_short;  // bytes
  const char* memory_at_rest_words;
  const char* memory_same_traffic;  // strategy, bytes, percent, strategy, bytes, bytes
  const char* memory_more_traffic;  // strategy, bytes, percent, strategy, bytes, bytes, bytes
  const char* memory_ring_shows;  // purpose, strategy
  const char* memory_ring_compute;  // strategy
  const char* memory_ring_at_rest;
  const char* memory_view_too_small;
  const char* training_gpus;
  const char* training_dtype;
  const char* training_dtype_hint;
  const char* training_iterations;
  const char* training_seed;
  const char* training_shown;             // %d shown, %d iterations
  const char* training_explained;         // %lld parameters, %d GPUs
  const char* training_ddp;
  const char* training_zero2;
  const char* training_nosync;
  const char* training_loss_title;
  const char* training_axis_iterations;   // %d iterations
  const char* training_mean_loss;         // %s loss
  const char* training_spread_title;
  const char* training_spread_hint;
  const char* training_not_started;
  const char* training_identical;         // %d step
  const char* training_drifted;           // %d step, %s spread
  const char* training_too_small;
  const char* compare_question;           // %s op, %lld count, %s type, %s bytes, %d GPUs
  const char* compare_link;
  const char* compare_link_figures;       // %.2f alpha in us, %.0f GB/s
  const char* compare_algorithm;
  const char* compare_rounds;
  const char* compare_messages;
  const char* compare_sent;
  const char* compare_busiest;
  const char* compare_time;
  const char* compare_link_in;            // %s bytes, %d GPU
  const char* compare_link_out;           // %s bytes, %d GPU
  const char* compare_table_hint;
  // "What NCCL would do: %s on %d channels: %s, busbw %s GB/s" (pair, channels, time, busbw).
  const char* compare_nccl_line;
  const char* compare_plot_title;
  const char* compare_this_size;
  const char* compare_crossover;          // %s faster algorithm, %s size
  const char* compare_axis_hint;
  const char* compare_no_crossover;       // %s algorithm
  const char* compare_too_small;
  const char* link_title;                 // %d round, %d rounds, %s algorithm
  const char* link_no_rounds;
  const char* link_hint;
  const char* link_scale_top;             // %s bytes
  const char* link_round_summary;         // %d links, %s bytes
  const char* view_devices;
  const char* view_job;
  const char* job_none;
  const char* job_summary;        // %d ranks, %s backend, version and GPU, %d collectives
  const char* job_untraced;       // %s ranks
  const char* job_hint;
  const char* job_fit;
  const char* job_rank;           // %d rank
  const char* job_not_traced;
  const char* job_axis;           // the time axis' unit label
  const char* job_legend_slowest;
  const char* job_compute_words[4];  // forward, backward, optimizer, GPU compute
  const char* job_bucket;         // %d bucket (1-based), %d buckets
  const char* job_collective;     // %zu number (1-based), %zu collectives, %s group
  const char* job_size_gradients; // %s bytes, %s dtype
  const char* job_size;           // %s bytes, %s dtype
  const char* job_algorithm;      // %s op, %s algorithm/protocol, %d channels
  const char* job_by_backend;     // %s op, %s backend (no library choice known)
  const char* job_time;           // %s duration, %s busbw
  const char* job_peak;           // %.0f GB/s, %s link, %s why
  const char* job_symbolic;
  const char* job_hidden;         // %.0f share of the time under compute
  const char* job_model;          // %s the NCCL model's time for it (docs/nccl-model.md)
  const char* job_tooltip;        // %d rank, %s op, %s group, %d seq, %s size, %lld count, %s dtype, %s time, %s job_model or nothing, %.2f algbw, %.2f busbw, %s algo, %s proto, %s channels, %s job_hidden or nothing
  const char* devices_host_memory;
  const char* devices_column_device;
  const char* devices_column_name;
  const char* devices_column_ringviz;
  const char* devices_column_used;
  const char* devices_device;             // %d device ordinal
  const char* devices_used_of_total;      // %s bytes used, %s bytes total
  const char* devices_placement;
  const char* devices_rank_on;            // %d GPU of the ring, %d device ordinal
  const char* devices_cells;              // %s where the cells come from and why
  const char* devices_round;              // %d round, %d rounds
  const char* devices_wave;               // the same when the schedule is pipelined
  const char* devices_no_rounds;
  const char* devices_transfer;           // %d GPU, %d GPU, %s route, %s bytes
  const char* devices_route[4];           // by TransferRoute: host memory, same device, peer-to-peer, through host
  const char* devices_times;              // %s clock
  const char* devices_clock_cuda;
  const char* devices_clock_host;
  const char* devices_clock_recorded;  // a replayed run's measured times
  const char* devices_no_times;
  const char* devices_column_round;
  const char* devices_column_time;
  const char* devices_not_run;

  // Reductions (--reduce); each array is indexed by ReduceOp: sum, prod, max, min, avg
  const char* reduction_partial[5];    // one unfinished result ("partial sum")
  const char* reduction_partials[5];   // several of them
  const char* reduction_explained[5];  // a sentence after the reduce-scatter captions (not for sum,
                                       // which the captions already describe)
  const char* reduction_kind[5];       // a reducing transfer in the transfers table
  const char* traffic_formula_other;   // heads the ring's formula where another algorithm runs

  // Too small to draw
  const char* window_too_small;           // %d minimum width, %d minimum height (pixels)
  const char* view_too_small;

  // Replaying a recorded run (--open, the Open control)
  const char* replay_title;            // %s file, %s transport, ranks, hosts (from the two below)
  const char* replay_title_trace;      // %s file, %s backend, ranks
  // A capture's measured time beside what NCCL's model predicts for the same collective:
  // %s measured, %s topology key, %s NCCL's choice ("RING/LL on 8 channels: 12.3 µs, busbw ...").
  const char* replay_model_line;
  const char* replay_title_job;        // %s file, %d collectives, ranks
  const char* replay_job_position;     // %zu collective (1-based), %zu collectives
  const char* replay_job_previous;
  const char* replay_job_next;
  const char* replay_rank_words[2];    // "1 rank", "%d ranks"
  const char* replay_host_words[2];    // "1 host", "%d hosts"
  const char* replay_close;
  const char* replay_locked;
  const char* replay_pacing;
  const char* replay_pacing_names[2];  // indexed by Pacing: measured, even
  const char* replay_no_times;
  const char* replay_mismatch;         // %d round, %d GPU, %lld element, %s recorded, %s computed
  // An integer sum, prod or avg that wraps (core/engine/integer_overflow.h).
  // Short enough for the controls bar, which shows a notice only whole; the cell shows the
  // wrapped value.
  const char* integer_overflow;        // %s type, %s reduction, %lld element, %s exact
  const char* replay_output_mismatch;  // %d GPU, %lld output element, %s recorded, %s computed
  const char* replay_round_time;       // %d round, %s time
  const char* replay_round_wait;       // %d GPU, %s wait, %d GPU waited for
  const char* timeline_spans[4];       // send, delay, wait, reduce and finish (arrived to end): the timeline's legend
  const char* timeline_row;            // %d GPU, %s host
  const char* timeline_tooltip;        // %d GPU, %s host, %d round, %s start, posted, arrived, end, delay, wait
  const char* hosts_legend;
  const char* open_title;
  const char* open_button;
  const char* open_path_hint;
  const char* open_found;
  // The Memory tab's whole-iteration mode (views/iteration/): a transformer's iteration.
  const char* memory_mode_states;
  const char* memory_mode_iteration;
  const char* iteration_model;
  const char* iteration_custom;
  const char* iteration_layers;
  const char* iteration_hidden;
  const char* iteration_heads;
  const char* iteration_vocab;
  const char* iteration_params;          // billions
  const char* iteration_strategy;
  const char* iteration_seq;
  const char* iteration_micro_batch;
  const char* iteration_recompute;
  const char* iteration_recompute_names[3];  // indexed by Recompute: none, selective, full
  const char* iteration_offload;
  const char* iteration_offload_names[2];    // indexed by Offload: none, optimizer
  const char* memory_mode_measured;          // the Memory view's mode for a job that measured its memory
  const char* measured_none;
  const char* measured_configuration;
  const char* measured_rank;
  const char* measured_heading;  // label, rank, world size, convention
  const char* measured_bar;      // the measured bar's word
  const char* model_bar;         // the model bar's word
  const char* measured_within;
  const char* measured_outside;
  const char* measured_row;        // term, measured, model, difference, tolerance, within/outside
  const char* measured_row_short;  // term, difference, within/outside
  const char* measured_more;       // how many terms did not fit
  const char* iteration_parallel_note;       // tp, " with SP" or "", data parallel, attention: what the count now is
  const char* iteration_tp;                  // the tensor-parallel group's size
  const char* iteration_sp;                  // sequence parallelism
  const char* iteration_attention;
  const char* iteration_attention_names[2];  // indexed by Attention: eager, flash
  const char* iteration_accelerator;
  const char* iteration_peak_button;
  const char* iteration_moment;          // %d event, %d events, %s what happens
  const char* iteration_event_start;
  const char* iteration_event_forward;   // %lld layer, %lld layers
  const char* iteration_event_loss;
  const char* iteration_event_backward;  // %lld layer, %lld layers
  const char* iteration_event_rerun;     // %lld layer, %lld layers (full recomputation)
  const char* iteration_event_step;
  const char* iteration_event_step_host;
  const char* iteration_event_gather;
  const char* iteration_activations;
  const char* iteration_logits;
  const char* iteration_buffers;
  const char* iteration_peak;            // %s bytes, %s when, %s what
  // The peak's cause on top of what the GPU holds besides it: the weights and optimizer states
  // (which are there all iteration), and the gradients when backward has made some.
  const char* iteration_peak_cause;      // %s part, %s bytes, %s weight and optimizer-state bytes
  const char* iteration_peak_cause_and_gradients;  // %s part, %s bytes, %s gradient bytes, %s weight and optimizer-state bytes
  const char* iteration_peak_states_only;  // %s model-state bytes
  const char* iteration_fits;            // %s capacity, %s spare
  const char* iteration_does_not_fit;    // %s capacity, %s over
  const char* iteration_host;            // %s per GPU, %s per machine, %s PCIe per GPU
  const char* iteration_sawtooth;
  const char* iteration_time;            // %s seconds
  const char* iteration_time_parts[5];   // compute, recompute, communication, offload, tensor parallel
  const char* iteration_time_hidden;     // %s communication, %s PCIe, both in total
  const char* iteration_caveat;
  const char* iteration_caveat_gpt_block;  // the caveat's last clause alone, beside iteration_parallel_note
  const char* iteration_same_on_every_gpu;
  const char* iteration_strategies;
  const char* iteration_too_small;
  const char* iteration_audience_summary;  // model, parameters, strategy, gpus, capacity, seq, micro-batch, recompute, offload, tp, " + SP" or "", attention

  // The Compare tab on a topology (docs/architecture.md, "The Compare tab on a topology")
  const char* compare_topology;
  const char* compare_topology_star;     // the star of the link selector: each GPU one port into one switch
  const char* compare_computing;
  const char* compare_sentence_one;      // %s topology, %s algorithm, %s smallest size, %s largest size
  const char* compare_sentence_start;    // %s topology, %s algorithm, %s smallest size
  const char* compare_sentence_change;   // %s faster algorithm, %s slower algorithm, %s size
  const char* compare_sentence_end;      // %s largest size, %s algorithm
  const char* link_topology_title;       // %d step, %d steps, %s algorithm, %s topology
  const char* link_topology_hint;
  const char* link_shared_by;            // %d transfers
  const char* link_legend_idle;
  const char* link_legend_shared;
  const char* link_legend_gpu;
  const char* link_legend_switch;
  const char* link_topology_summary;     // %d links busy, %d shared, %s busiest

  // The pipelined ring: slices and channels (setup panel, ring view, key S)
  const char* pipeline_mode;           // the radio pair's label
  const char* pipeline_lock_step;
  const char* pipeline_pipelined;
  const char* pipeline_explained;
  const char* slices;
  const char* slices_hint;             // %d most slices
  const char* channels;
  const char* channels_hint;           // %d most channels
  const char* key_pipeline;
  const char* wave_title;              // %d wave, %d waves, %s in flight, %s stage
  const char* wave_in_flight[2];       // "1 slice ...", "%d slices in flight on every busy link"
  const char* wave_in_flight_with_elements[2];  // the same when some pieces hold no elements
  const char* wave_stages[4];          // filling, full, draining, idle (WaveStage)
  const char* wave_empty_pieces;       // %lld empty pieces, %lld pieces, %lld count, %lld count that fills
  const char* pipeline_empty_notice;   // %lld empty pieces, %lld pieces, %lld count, %lld count that fills
  const char* pipeline_fill_count;     // %lld count: the button that raises the count
  const char* channel_shown;           // the channel selector's label
  const char* channel_all;             // the selector's entry for every channel at once
  const char* channel_number;          // %d channel
  const char* channel_number_lane;     // %d channel, %s its lane's name (the bidirectional ring's directions)
  const char* lane_tooltip;            // %s lane name, %s contributors: one half of a lock-step slot
  const char* piece_tooltip;           // %d channel, %d slice, %s contributors
  const char* piece_no_elements;       // a piece's contributors when it covers no element

  // ---- zhgui ----
  // The lesson bar (in the lesson's language: ui_strings_for(lesson language)).
  const char* lesson_bar_none;         // the picker's entry for no lesson
  const char* lesson_bar_previous;
  const char* lesson_bar_next;
  const char* lesson_bar_play;
  const char* lesson_bar_pause;
  const char* lesson_bar_scene;        // %d scene, %d scenes
  const char* lesson_scene_failed;     // %d scene (a notice)
  // The Record button (record/recorder_button.*) and its notices.
  const char* record_button;
  const char* record_tooltip;          // %d frames per second
  const char* record_stop;
  const char* record_counter;          // %02lld minutes, %02lld seconds, %lld frames
  const char* record_target;           // %s file
  const char* record_done;             // %lld frames, %s file
  const char* record_failed;           // %s reason (English detail from the system)
  const char* record_resized;
  // The backend note when the GUI runs on the CPU although CUDA was allowed.
  const char* backend_no_cuda_build;
  const char* backend_cpu_fallback_reason;  // %s reason (the CUDA driver's words)
  // ---- stage ----
  // The end card of a stage recording (app/gui/stage): above the lesson's title and its
  // scenes, and its last line.
  const char* stage_recap;
  const char* stage_made_with;

  // ---- quiet ----
  // The status bar says the CPU fallback in a few words (fits at 1280 px with large text); the
  // whole notice is its tooltip and the help window's "backend" section.
  const char* backend_cpu_fallback;    // "CPU (no CUDA device)"
  const char* backend_cpu_short;       // when even that does not fit
  const char* backend_heading;         // the help window's section with the whole notice
  // Copy command: the `ringviz ...` line that opens the current view.
  const char* copy_command;            // the button
  const char* copy_command_tooltip;
  const char* copy_command_title;      // the window showing the line
  const char* copy_command_copied;     // under the line: it is on the clipboard
  const char* copy_command_close;
  const char* copy_link;               // the browser's sibling of copy_command: the page's link
  const char* copy_link_tooltip;
  const char* web_desktop_only;        // the browser's setup panel: what only the desktop build has

  // ---- fixgui ----
  // The status bar in a build without CUDA: no device was looked for, so "no CUDA device" is wrong.
  const char* backend_cpu_no_cuda_build;  // "CPU (no CUDA in this build)"
};

// The strings of one UI language. The language shown is state of the GUI that runs (GuiApp's,
// handed to panels in FrameContext and ViewContext), not of the process: two hosts in one
// process, or a test, can speak different languages.
const UiStrings& ui_strings_for(Language language);

// The Simplified Chinese instance (strings_zh.cpp).
extern const UiStrings kUiStringsZh;

}  // namespace ringviz::gui
