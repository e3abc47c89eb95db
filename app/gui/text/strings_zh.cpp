// Simplified Chinese UI strings. Written for readers of Chinese technical material: the
// collective names (AllGather, ReduceScatter, AllReduce) stay in English as they do in most
// Chinese documentation; "slot" is 分片, as in `ringviz trace --lang zh`. Every conversion of
// the English format is kept, in the same order.
//
// Every character used here must be in the font atlas; fonts.cpp builds the Chinese glyph
// ranges from this instance, so nothing else needs listing.
#include "app/gui/text/strings.h"

namespace ringviz::gui {

const UiStrings kUiStringsZh = {
    .setup_title = "设置",
    .caption_title = "说明",
    .ring_title = "环",
    .round_table_title = "传输",
    .traffic_title = "通信量",
    .controls_title = "控制",
    .help_title = "帮助",

    .operation = "操作",
    .op_allgather = "AllGather",
    .op_reducescatter = "ReduceScatter",
    .op_allreduce = "AllReduce",
    .algorithm = "算法",
    .algorithm_ring = "环形",
    .order = "顺序",
    .order_seed = "seed",
    .order_nccl = "nccl",
    .order_explained =
        "seed 与原文表格一致（GPU r 先发送分片 r）；nccl 提前一个分片开始，"
        "于是 GPU r 最终负责分片 r，和 NCCL 的 ReduceScatter 相同。",
    .gpus = "GPU 数",
    .gpus_hint = "按住 Ctrl 点击可直接输入，最多 256。",
    .count = "元素数",
    .count_hint = "每张 GPU 起初拥有的元素个数。",
    .dtype = "类型",
    .reduction = "归约",
    .reduction_unused = "AllGather 只做拷贝，不做归约。",
    .input = "输入",
    .input_seed = "seed",
    .input_rank = "rank",
    .input_index = "index",
    .input_random = "随机",
    .input_custom = "自定义",
    .input_file = "文件",
    .input_seed_explained = "GPU r 的第 i 个元素为 r*count + i + 1。",
    .input_rank_explained = "GPU r 的每个元素都是 r + 1。",
    .input_index_explained = "每张 GPU 的第 i 个元素都是 i。",
    .input_random_explained = "由下面的种子生成的伪随机数（每次运行都相同）。",
    .input_custom_explained = "你自己填写的数值，见下表。",
    .input_file_explained = "从 --init file:PATH 指定的 JSON 文件读取。",
    .random_seed = "随机种子",
    .value_table = "输入数值",
    .value_table_hint = "修改任一数值，输入即变为自定义。",
    .value_table_too_big = "GPU 数 x 元素数不超过 64 时才显示数值表。",
    .backend = "后端",
    .backend_in_use = "运行于：%s",
    .view_section = "显示",
    .theme = "主题",
    .theme_dark = "深色",
    .theme_light = "浅色",
    .palette = "GPU 配色",
    .palette_standard = "标准",
    .palette_colour_blind = "色盲友好",
    .text_size = "字号",
    .setup_rejected = "未应用：%s",

    .caption_start = "%s：第一轮之前",
    .caption_round = "第 %d 轮，共 %d 轮  -  %s",
    .caption_done = "%s：完成",
    .phase_reduce_scatter = "reduce-scatter",
    .phase_all_gather = "all-gather",
    .explain_start_allgather =
        "每张 GPU 只有自己的那一块（大写字母），其余分片还是空的（斜线）。"
        "经过 N-1 轮，每一块都会沿环走完一圈。",
    .explain_start_reducescatter =
        "每张 GPU 都把自己的整个输入分成 N 个分片（a0 是 GPU a 的分片 0）。"
        "经过 N-1 轮，%s沿环传递，直到每张 GPU 都得到一个完全归约的分片。",
    .explain_start_allreduce =
        "每张 GPU 都把自己的整个输入分成 N 个分片。先做一遍 reduce-scatter，"
        "每张 GPU 各得到一个算完的分片；再做一遍 all-gather，把这些分片传给所有人。",
    .explain_reduce_round =
        "每张 GPU 把一个分片发给右边的邻居，邻居把它与自己手上的同一分片合并（归约）。"
        "每过一轮，每个%s多一项。",
    .explain_reduce_last =
        "reduce-scatter 的最后一轮：每个到达的%s补上最后一项，于是每张 GPU "
        "都拥有一个完整的分片（带框）。其余分片只是中间结果（变暗）。",
    .explain_gather_round =
        "每张 GPU 把一个算完的分片转发给右边的邻居，邻居原样保存（拷贝）。"
        "这一阶段不再相加，分片只是被传下去。",
    .explain_gather_last =
        "all-gather 的最后一轮：最后几份拷贝到达，每张 GPU 都拿到了完整的结果。",
    .explain_done_allgather = "每张 GPU 现在都有全部 N 块，按 GPU 编号排列。",
    .explain_done_reducescatter =
        "每张 GPU 持有一个分片的完整归约结果（带框）；变暗的%s可以丢弃。",
    .explain_done_allreduce =
        "每张 GPU 都持有所有分片的完整归约结果。为此每张 GPU 发送了自身缓冲区的 "
        "2(N-1)/N，与参与的 GPU 数量无关。",
    .explain_single_gpu = "只有一张 GPU 时无需交换：结果就是输入。",
    .phase_reduce = "归约",
    .phase_broadcast = "广播",
    .phase_gather = "收集",
    .phase_scatter = "分发",
    .start_holds_blocks =
        "每张 GPU 只有自己的那一块，其余分片是空的（斜线）。",
    .start_holds_slots =
        "每张 GPU 的输入分成 N 个分片。",
    .plan_naive_allgather =
        "共 %d 轮：每张 GPU 把自己的块交给 GPU 0，GPU 0 再把缺少的块发给各张 GPU；几乎所有数据都经过 GPU 0 的链路。",
    .plan_naive_reducescatter =
        "共 %d 轮：每张 GPU 把缓冲区发给 GPU 0，由它完成全部归约，再把各自的分片分给各张 GPU；GPU 0 的链路承载 N-1 份缓冲区。",
    .plan_naive_allreduce =
        "共 %d 轮：每张 GPU 把缓冲区发给 GPU 0，由它完成全部归约并把结果发回；GPU 0 的链路每个方向承载 N-1 份缓冲区。",
    .plan_direct_allgather =
        "只需一轮：每张 GPU 把自己的块直接发给其他每张 GPU，每张同时发 N-1 条消息。",
    .plan_direct_reducescatter =
        "只需一轮：每张 GPU 把每个分片直接发给负责它的 GPU，由后者归约；每张发 N-1 条消息。",
    .plan_direct_allreduce =
        "第 1 轮把每个分片直接发给负责它的 GPU 归约；第 2 轮把算完的分片直接发给所有 GPU。每张 GPU 每轮发 N-1 条消息。",
    .plan_rhd_allgather =
        "递归倍增，共 %d 轮：搭档之间越来越远，交换各自持有的全部数据，每张 GPU 持有的数据每轮翻倍。",
    .plan_rhd_reducescatter =
        "递归减半，共 %d 轮：搭档之间越来越近，交换并归约仍在处理的一半数据，直到每张 GPU 得到一个分片。",
    .plan_rhd_allreduce =
        "先递归减半 %d 轮（搭档交换并归约一半分片），再递归倍增 %d 轮（交换持有的全部分片）。",
    .plan_rhd_extra =
        "%d 张 GPU 时，先有 %d 张合并到搭档，最后再拿回结果。",
    .plan_tree =
        "以 GPU 0 为根的二叉树（GPU r 的子节点是 2r+1、2r+2）。共 %d 轮：缓冲区逐层向上归约，结果再逐层拷贝下来。",
    .plan_tree_pipelined =
        "同一棵二叉树的流水线版：分片一个接一个每轮上行一跳，各层同时工作；再同样传下来。共 %d 轮。",
    .round_to_root_reduce =
        "除 GPU 0 外，每张 GPU 把整个缓冲区（%d 个分片）发给 GPU 0，按编号顺序合并（归约）；它的链路承载 %d 份缓冲区。",
    .round_to_root_copy =
        "除 GPU 0 外，每张 GPU 把自己的块发给 GPU 0，原样保存（拷贝）：现在它持有全部 %d 块。",
    .round_from_root_all =
        "GPU 0 把算完的缓冲区依次发给其余 %d 张 GPU（拷贝），都走它的一条链路。",
    .round_from_root_own = "GPU 0 把算完的分片 r 发给 GPU r（拷贝）。",
    .round_from_root_missing =
        "GPU 0 把每张 GPU 缺少的块发给它（拷贝），它的链路上共 %d 块。",
    .round_direct_reduce =
        "每张 GPU 把每个分片直接发给负责它的 GPU（分片 j 发给 GPU j），同时发 %d 条消息；负责方按发送方顺序合并收到的 %d 份（归约）。",
    .round_direct_gather =
        "每张 GPU r 把分片 r 同时直接发给其余 %d 张 GPU，对方原样保存（拷贝）。",
    .pair_apart = "编号相差 %d 的 GPU",
    .pair_any = "搭档 GPU",
    .round_pair_reduce =
        "%s 两两配对（GPU %d 与 GPU %d，……），交换仍在处理的一半分片：每张发 %d 个分片给搭档，搭档合并进来（归约）。",
    .round_pair_copy =
        "%s 两两配对（GPU %d 与 GPU %d，……），交换持有的算完的分片：每张发 %d 个分片给搭档，搭档原样保存（拷贝），数据翻倍。",
    .round_fold_reduce =
        "%s 把整个缓冲区合并到编号大一的 GPU（归约）后等待；其余 %d 张 GPU（2 的幂）两两配对继续。",
    .round_fold_copy =
        "%s 把自己的块交给编号大一的 GPU（拷贝）后等待；其余 %d 张 GPU（2 的幂）两两配对继续。",
    .round_unfold = "等待的 GPU 拿回自己的那份：%s 各从编号大一的 GPU 收到 %d 个分片（拷贝）。",
    .round_tree_up =
        "深度为 %d 的 GPU 把整个缓冲区向上发给父节点（GPU %d 发给 GPU %d，……），父节点合并进来（归约）。",
    .round_tree_down = "深度为 %d 的 GPU 把完整结果向下拷贝给子节点（GPU %d 发给 GPU %d，……）。",
    .round_pipe_up =
        "分片沿树每轮上行一跳：%d 张 GPU 各把一个分片发给父节点（GPU %d 把分片 %d 发给 GPU %d，……），父节点合并进来（归约）。",
    .round_pipe_down =
        "算完的分片沿树每轮下行一跳：%d 张 GPU 各把一个分片拷贝给子节点（GPU %d 把分片 %d 发给 GPU %d，……）。",
    .after_root_full = "现在 GPU 0 持有所有分片的完整归约结果。",
    .after_taking_part_own =
        "参与的 GPU 现在拥有自己完全归约的分片（带框）。",
    .after_owns =
        "这一轮之后，每张 GPU 拥有一个完全归约的分片（带框）。",
    .after_all_hold = "这一轮之后，每张 GPU 都持有完整的结果。",
    .done_allreduce_plain = "每张 GPU 都持有所有分片的完整归约结果。",
    .done_busiest =
        "发送最多的 GPU 发送了 %s。",
    .pipeline_wave = "第 %d 到 %d 轮的切片同时传输；第 %d 轮：",
    .list_pair = "%s 和 %s",
    .list_comma = "、",

    .gpu_name = "GPU %d",
    .gpu_short = "%d",
    .cell_tooltip = "GPU %d，分片 %d",
    .cell_empty = "空：还没有数据到达",
    .cell_contributors = "已合并 %d 张 GPU 的数据",
    .cell_elements = "%lld 个元素",
    .cell_owned = "由这张 GPU 负责",
    .cell_stale = "过时的%s，已不再需要",
    .cell_no_elements = "这个分片没有元素（元素数少于 GPU 数）",

    .table_round = "轮",
    .table_phase = "阶段",
    .table_transfer = "发送",
    .table_slot = "分片",
    .table_kind = "方式",
    .table_bytes = "字节",
    .kind_copy = "拷贝",
    .kind_reduce = "归约",
    .table_hint = "点击一行可高亮它的发送方 GPU。",
    .table_no_rounds = "没有轮次：单张 GPU 无需交换数据。",

    .traffic_gpu = "GPU",
    .traffic_sent = "发送",
    .traffic_received = "接收",
    .traffic_total = "全部 GPU",
    .traffic_after = "%d / %d 轮之后",
    .traffic_formula_allreduce = "%s 每张 GPU 发送：2(N-1)/N x M",
    .traffic_formula_pass = "%s 每张 GPU 发送：(N-1)/N x M",
    .traffic_formula_values = "= 2 x (%d-1)/%d x %s = %s",
    .traffic_formula_pass_values = "= (%d-1)/%d x %s = %s",
    .traffic_m_allgather = "M = 单张 GPU 拼接后的输出（N x 元素数 x 元素大小）",
    .traffic_m_other = "M = 单张 GPU 的缓冲区（元素数 x 元素大小）",
    .traffic_measured = "结束时每张 GPU 的实测值：%s",
    .traffic_exact_note = "（当 N 整除元素数时完全相等）",
    .traffic_rhd_note = "（N 为 2 的幂时成立；%d 张 GPU 时，接收搭档数据的 GPU 发送得更多）",
    .traffic_naive_allreduce = "%s：GPU 0 发送 (N-1) x M，其余各发 M",
    .traffic_naive_allreduce_values = "= (%d-1) x %s = %s（GPU 0）",
    .traffic_naive_reducescatter = "%s：除 GPU 0 外各发 M，GPU 0 发 (N-1)/N x M",
    .traffic_naive_reducescatter_values = "= 除 GPU 0 外各发 %s；GPU 0：%s",
    .traffic_naive_allgather = "%s：GPU 0 发送 (N-1)(N-1)/N x M，其余各发 M/N",
    .traffic_naive_allgather_values = "= (%d-1)(%d-1)/%d x %s = %s（GPU 0）",
    .traffic_tree = "%s：向父节点发 M，向每个子节点发 M",
    .traffic_tree_values = "最多的是 GPU %d：%d x %s = %s",

    .reset = "重置",
    .step_back = "< 后退",
    .play = "播放",
    .pause = "暂停",
    .step_forward = "前进 >",
    .go_to_end = "结尾",
    .loop = "循环",
    .speed = "速度",
    .help_button = "帮助 (H)",
    .timeline_hint = "拖动可快进快退；标记是各轮（橙色：%s，蓝色：%s）。",
    .notice_prefix = "提示：",

    .help_keys_heading = "按键",
    .help_guide_heading = "如何看图",
    .help_legend_heading = "格子",
    .key_space = "空格\t播放 / 暂停",
    .key_arrows = "右 / 左\t前进 / 后退一轮",
    .key_home_end = "Home / End\t回到开头 / 跳到结尾",
    .key_speed = "+ / -\t速度加倍 / 减半（0.25x 到 8x）",
    .key_fullscreen = "F\t全屏开 / 关",
    .key_quit = "Ctrl+Q\t退出（也可点窗口的关闭按钮）",
    .key_help = "H\t显示 / 隐藏本窗口",
    .key_ops = "1 / 2 / 3\tAllGather / ReduceScatter / AllReduce",
    .key_mouse = "点击\t点表格中的一行或某个 GPU 框，高亮该 GPU",
    .guide_text =
        "每个框是一张 GPU，框里的每个格子是它缓冲区中的一个分片。箭头表示谁发给谁："
        "GPU r 总是发给 GPU r+1，最后一张发给 GPU 0。每一轮所有 GPU 同时发送，各发一个分片；"
        "你看到移动的小方块就是这些分片。说明栏讲这一轮做什么，传输表列出它的每次传输，"
        "通信量面板累计字节数。在设置里改动任何一项，集合通信会立即重建，"
        "并尽量停在当前这一轮。",
    .guide_text_other =
        "每个方框是一张 GPU，框里的每个格子是它缓冲区的一个分片。使用 %s 时，每一轮都有自己的发送方和接收方："
        "你看到移动的数据包就是当前这一轮发送的分片，说明栏会写明谁把什么发给谁。表格列出这一轮的传输，"
        "通信量面板累计字节数。在设置里改动任何一项，集合通信都会立即重建，并尽量停留在当前轮次。",
    .legend_colour = "颜色表示该分片装的是哪张 GPU 的输入。",
    .legend_stripes = "条纹：%s，已合并几张 GPU 就有几条。",
    .legend_hatch = "斜线：空，还没有数据到达。",
    .legend_dim = "变暗：这张 GPU 已不再需要的%s。",
    .legend_outline = "带框：reduce-scatter 之后由这张 GPU 负责的分片。",
    .legend_heat = "较大的分片用热度条显示数值（暗 = 小，亮 = 大）。",

    .language = "语言",
    .theme_high_contrast = "高对比度",
    .presentation_mode = "演示模式 (P)",
    .presentation_size = "演示字号",
    .predict_mode = "预测模式 (G)",
    .predict_question = "第 %d 轮开始前：GPU %d 的哪个分片会改变？请点击那个格子。",
    .predict_hint = "你一作答，这一轮就开始播放。",
    .predict_pick_gpu = "请点击 GPU %d（带框的那张）里的格子。",
    .predict_correct = "答对了！GPU %d 收到的是分片 %d，现在是 %s。",
    .predict_wrong = "不对：GPU %d 收到的是分片 %d（现在是 %s），你选的是分片 %d。",
    .predict_score = "得分：%d / %d",
    .predict_finished = "所有轮次都已作答。最终得分：%d / %d",
    .key_present = "P\t演示模式：大字号、高对比度、隐藏设置面板",
    .key_present_size = "[ / ]\t演示字号减小 / 增大（1.5x 到 3x）",
    .key_predict = "G\t预测模式：每轮播放前先猜结果",
    .key_language = "L\t切换语言（English / 简体中文）",
    .font_missing = "找不到中文字体 %s（请安装 fonts-wqy-microhei），改用英文显示。",

    .view_ring = "环",
    .view_memory = "显存",
    .view_training = "训练",
    .view_compare = "算法对比",
    .memory_model = "模型",
    .memory_gpus = "GPU 数##memory",
    .memory_gpus_hint = "数据并行的 GPU 数。按住 Ctrl 点击可直接输入，最多 64。",
    .memory_capacity = "单卡显存",
    .memory_capacity_item = "%.0f GB",
    .memory_convention = "字节计法",
    .memory_convention_assumes = "%s 公式中的 P 表示参数个数。",
    .memory_next_to_ddp = "与 DDP 并列：",
    .memory_bucket = "桶大小 MiB",
    .memory_bucket_hint = "反向传播按这个大小分桶，把梯度交给集合通信（PyTorch DDP 默认 25 MiB）。",
    .memory_start = "开始",
    .memory_model_states = "模型状态",
    .memory_model_states_hint = "优化器更新这一步：每张 GPU 在两次迭代之间要保留的全部内容（即 `ringviz memory` 打印的内容）。",
    .memory_step = "第 %d 步，共 %d 步",
    .memory_column_formula = "%s = 每张 GPU 静止时 %s",
    .memory_fits = "放得进 %s",
    .memory_does_not_fit = "放不进 %s",
    .memory_axis = "GB",
    .memory_largest_bar = "最大：GPU %d，%s",
    .memory_capacity_line = "显存 %s",
    .memory_step_label = "第 %d 步：%s",
    .memory_open_in_ring = "在环视图中打开",
    .memory_opened_notice = "环视图：%s；这个桶的 %lld 个元素以 %lld 个显示，轮次相同，只是数字更小。",
    .memory_collective_size = "%lld 个 %s 元素",
    .memory_peak = "峰值 %s，出现在 GPU %d。%s",
    .memory_peak_cause = "第 %d 步（%s）：%s",
    .memory_peak_on_top = "参数和优化器状态之外，还有%s",
    .memory_peak_resident_only = "只有参数和优化器状态",
    .memory_peak_part = "%s（%s）",
    .memory_peak_and = "%s和%s",
    .memory_parameters = "参数",
    .memory_optimizer_states = "优化器状态",
    .memory_gradients = "梯度",
    .memory_transient = "临时缓冲区",
    .memory_legend_owned = "GPU 自己的颜色：只有这张 GPU 保留的那一份",
    .training_gpus = "GPU 数##training",
    .training_dtype = "精度",
    .training_dtype_hint = "f32：全部用 fp32。bf16：参数和梯度用 bf16，主权重和优化器状态用 fp32。",
    .training_iterations = "迭代次数",
    .training_seed = "种子",
    .training_shown = "第 %d 次迭代，共 %d 次",
    .training_explained =
        "同一个 MLP（%lld 个参数）在 %d 张模拟 GPU 上训练，每张 GPU 用自己的小批量数据；"
        "GPU 之间的每个字节都经过 ringviz 的集合通信。DDP 对梯度做 all-reduce，"
        "ZeRO-2 对梯度做 reduce-scatter、再对参数做 all-gather，nosync 则什么也不交换。",
    .training_ddp = "DDP",
    .training_zero2 = "ZeRO-2",
    .training_nosync = "不同步",
    .training_loss_title = "各 GPU 的损失（对数坐标）",
    .training_axis_iterations = "迭代（共 %d 次）",
    .training_mean_loss = "平均损失 %s",
    .training_spread_title = "参数分歧",
    .training_spread_hint = "同一个参数在任意两张 GPU 之间的最大差值",
    .training_not_started = "尚未开始",
    .training_identical = "%d 次迭代后，所有 GPU 的参数逐位相同",
    .training_drifted = "%d 次迭代后，各 GPU 的参数最多相差 %s",
    .compare_question = "%s：每张 GPU %lld 个 %s（%s），共 %d 张 GPU，取自设置面板",
    .compare_link = "链路",
    .compare_link_figures = "alpha %.2f us，每个方向 %.0f GB/s",
    .compare_algorithm = "算法",
    .compare_rounds = "轮数",
    .compare_messages = "消息数",
    .compare_sent = "每张 GPU 发送",
    .compare_busiest = "最忙的链路",
    .compare_time = "预测用时",
    .compare_link_in = "%s 流入 GPU %d",
    .compare_link_out = "%s 流出 GPU %d",
    .compare_table_hint = "消息数和字节数取单张 GPU 发送最多者。* = 该大小下最快。点击一行即用该算法运行。",
    .compare_plot_title = "预测用时与消息大小（每张 GPU 的字节数，双对数坐标）",
    .compare_this_size = "当前",
    .compare_crossover = "%s 自 %s 起",
    .compare_axis_hint = "消息大时环形算法靠带宽取胜；消息小时轮数少的算法靠延迟取胜。",
    .compare_no_crossover = "没有交叉点：在这里的所有大小下 %s 都最快。",
    .link_title = "第 %d 轮（共 %d 轮）的链路（%s）",
    .link_no_rounds = "没有轮次：只有一张 GPU，无人可通信。",
    .link_hint = "每个箭头是这一轮承载数据的一条链路，颜色和粗细表示字节多少。用下方的控制按钮逐轮查看。",
    .link_scale_top = "%s",
    .link_round_summary = "%d 条链路在忙；最忙的一条承载 %s",
    .view_devices = "设备",
    .devices_host_memory = "CPU 后端：环上的每张 GPU 都是主机内存里的一块缓冲区，每次传输都是两块缓冲区之间的复制。",
    .devices_column_device = "设备",
    .devices_column_name = "名称",
    .devices_column_ringviz = "ringviz",
    .devices_column_used = "已用 / 总量",
    .devices_device = "设备 %d",
    .devices_used_of_total = "%s / %s",
    .devices_placement = "环上每张 GPU 所在的设备",
    .devices_rank_on = "GPU %d：设备 %d",
    .devices_cells = "格子数据：%s",
    .devices_round = "第 %d 轮（共 %d 轮）：每次传输的路径",
    .devices_no_rounds = "没有轮次：不传输任何数据。",
    .devices_transfer = "GPU %d -> GPU %d：%s，%s",
    .devices_route = {"主机内存", "同一设备内", "点对点", "经由主机"},
    .devices_times = "每轮实测时间（%s）",
    .devices_clock_cuda = "CUDA 事件",
    .devices_clock_host = "主机时钟",
    .devices_clock_recorded = "录制的运行",
    .devices_no_times = "此后端不为轮次计时。",
    .devices_column_round = "轮",
    .devices_column_time = "时间",
    .devices_not_run = "尚未执行",
    .reduction_partial = {"部分和", "部分积", "当前最大值", "当前最小值", "部分和"},
    .reduction_partials = {"部分和", "部分积", "当前最大值", "当前最小值", "部分和"},  // no plural in Chinese
    .reduction_explained = {"这里是相加：a0+b0。", "这里是相乘：a0\xC3\x97" "b0。", "这里保留较大值：max(a0,b0)。",
                            "这里保留较小值：min(a0,b0)。",
                            "avg 先像求和一样相加，加上最后一项的 GPU 再除以 N：mean(a0,...,d0)。"},
    .reduction_kind = {"归约", "归约 \xC3\x97", "归约 max", "归约 min", "归约 avg"},
    .ring_algorithm_title = "环形",
    .traffic_formula_other = "作为对比（并非此处运行的算法）：",
    .window_too_small = "窗口太小：请至少调到 %d x %d 像素。",
    .view_too_small = "这里太小，画不下这些 GPU：请放大窗口、调小字号，或减少 GPU 数量。",
    .replay_title = "正在回放 %s（%s，%s，分布在 %s）",
    .replay_title_trace = "正在回放 %s（%s，%s）",
    .replay_rank_words = {"1 个进程", "%d 个进程"},
    .replay_host_words = {"1 台主机", "%d 台主机"},
    .replay_close = "关闭",
    .replay_locked = "设置来自录制的运行：关闭回放后才能再编辑。",
    .replay_pacing = "节奏",
    .replay_pacing_names = {"按实测", "均匀"},
    .replay_no_times = "这份 trace 没有实测时间：每轮播放时长相同。",
    .replay_mismatch = "第 %d 轮：录制的缓冲区与本程序的引擎算出的不同（GPU %d，元素 %lld：录制 %s，计算 %s）。",
    .replay_output_mismatch = "录制的输出与本程序的引擎算出的不同（GPU %d，输出元素 %lld：录制 %s，计算 %s）。",
    .replay_round_time = "第 %d 轮：%s",
    .replay_round_wait = "；GPU %d 等待 %s，等的是 GPU %d",
    .timeline_spans = {"发送", "延迟", "等待", "归约、收尾"},
    .timeline_row = "GPU %d  %s",
    .timeline_tooltip = "GPU %d（%s），第 %d 轮\n开始 %s，发出 %s，到达 %s，结束 %s\n延迟 %s，等待 %s",
    .hosts_legend = "主机：",
    .open_title = "打开录制的运行",
    .open_button = "打开",
    .open_path_hint = "run.json（trace 或 capture）",
    .open_found = "ringviz 自带的 capture：",
};

}  // namespace ringviz::gui
