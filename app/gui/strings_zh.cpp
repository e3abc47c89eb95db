// Simplified Chinese UI strings. Written for readers of Chinese technical material: the
// collective names (AllGather, ReduceScatter, AllReduce) stay in English as they do in most
// Chinese documentation; "slot" is 分片, as in `ringviz trace --lang zh`. Every conversion of
// the English format is kept, in the same order.
//
// Every character used here must be in the font atlas; fonts.cpp builds the Chinese glyph
// ranges from this instance, so nothing else needs listing.
#include "app/gui/strings.h"

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
        "经过 N-1 轮，部分和沿环传递，直到每张 GPU 都得到一个完全归约的分片。",
    .explain_start_allreduce =
        "每张 GPU 都把自己的整个输入分成 N 个分片。先做一遍 reduce-scatter，"
        "每张 GPU 各得到一个算完的分片；再做一遍 all-gather，把这些分片传给所有人。",
    .explain_reduce_round =
        "每张 GPU 把一个分片发给右边的邻居，邻居把它与自己手上的同一分片合并（归约）。"
        "每过一轮，每个部分和多一项。",
    .explain_reduce_last =
        "reduce-scatter 的最后一轮：每个到达的部分和补上最后一项，于是每张 GPU "
        "都拥有一个完整的分片（带框）。其余分片只是中间结果（变暗）。",
    .explain_gather_round =
        "每张 GPU 把一个算完的分片转发给右边的邻居，邻居原样保存（拷贝）。"
        "这一阶段不再相加，分片只是被传下去。",
    .explain_gather_last =
        "all-gather 的最后一轮：最后几份拷贝到达，每张 GPU 都拿到了完整的结果。",
    .explain_done_allgather = "每张 GPU 现在都有全部 N 块，按 GPU 编号排列。",
    .explain_done_reducescatter =
        "每张 GPU 持有一个分片的完整归约结果（带框）；变暗的部分和可以丢弃。",
    .explain_done_allreduce =
        "每张 GPU 都持有所有分片的完整归约结果。为此每张 GPU 发送了自身缓冲区的 "
        "2(N-1)/N，与参与的 GPU 数量无关。",
    .explain_single_gpu = "只有一张 GPU 时无需交换：结果就是输入。",

    .gpu_name = "GPU %d",
    .gpu_short = "%d",
    .cell_tooltip = "GPU %d，分片 %d",
    .cell_empty = "空：还没有数据到达",
    .cell_contributors = "已合并 %d 张 GPU 的数据",
    .cell_elements = "%lld 个元素",
    .cell_owned = "由这张 GPU 负责",
    .cell_stale = "过时的部分和，已不再需要",
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
    .traffic_formula_allreduce = "环形 AllReduce 每张 GPU 发送：2(N-1)/N x M",
    .traffic_formula_pass = "一遍环形传递每张 GPU 发送：(N-1)/N x M",
    .traffic_formula_values = "= 2 x (%d-1)/%d x %s = %s",
    .traffic_formula_pass_values = "= (%d-1)/%d x %s = %s",
    .traffic_m_allgather = "M = 单张 GPU 拼接后的输出（N x 元素数 x 元素大小）",
    .traffic_m_other = "M = 单张 GPU 的缓冲区（元素数 x 元素大小）",
    .traffic_measured = "结束时每张 GPU 的实测值：%s",
    .traffic_exact_note = "（当 N 整除元素数时完全相等）",

    .reset = "重置",
    .step_back = "< 后退",
    .play = "播放",
    .pause = "暂停",
    .step_forward = "前进 >",
    .go_to_end = "结尾",
    .loop = "循环",
    .speed = "速度",
    .help_button = "帮助 (H)",
    .timeline_hint = "拖动可快进快退；标记是各轮（橙色：reduce-scatter，蓝色：all-gather）。",
    .notice_prefix = "提示：",

    .help_keys_heading = "按键",
    .help_guide_heading = "如何看图",
    .help_legend_heading = "格子",
    .key_space = "空格\t播放 / 暂停",
    .key_arrows = "右 / 左\t前进 / 后退一轮",
    .key_home_end = "Home / End\t回到开头 / 跳到结尾",
    .key_speed = "+ / -\t速度加倍 / 减半（0.25x 到 8x）",
    .key_fullscreen = "F\t全屏开 / 关",
    .key_help = "H\t显示 / 隐藏本窗口",
    .key_ops = "1 / 2 / 3\tAllGather / ReduceScatter / AllReduce",
    .key_mouse = "点击\t点表格中的一行或某个 GPU 框，高亮该 GPU",
    .guide_text =
        "每个框是一张 GPU，框里的每个格子是它缓冲区中的一个分片。箭头表示谁发给谁："
        "GPU r 总是发给 GPU r+1，最后一张发给 GPU 0。每一轮所有 GPU 同时发送，各发一个分片；"
        "你看到移动的小方块就是这些分片。说明栏讲这一轮做什么，传输表列出它的每次传输，"
        "通信量面板累计字节数。在设置里改动任何一项，集合通信会立即重建，"
        "并尽量停在当前这一轮。",
    .legend_colour = "颜色表示该分片装的是哪张 GPU 的输入。",
    .legend_stripes = "条纹：部分和，已合并几张 GPU 就有几条。",
    .legend_hatch = "斜线：空，还没有数据到达。",
    .legend_dim = "变暗：这张 GPU 已不再需要的部分和。",
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
};

}  // namespace ringviz::gui
