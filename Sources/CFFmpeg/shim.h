#ifndef REEL_CFFMPEG_SHIM_H
#define REEL_CFFMPEG_SHIM_H

#include <errno.h>
#include <string.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavcodec/bsf.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/samplefmt.h>
#include <libavutil/sha.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>

// Macros that Swift cannot import, as inline functions.
static inline int reel_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int reel_averror_eof(void) { return AVERROR_EOF; }
static inline int reel_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int reel_averror_enomem(void) { return AVERROR(ENOMEM); }
static inline int reel_averror_einval(void) { return AVERROR(EINVAL); }
static inline int reel_averror_exit(void) { return AVERROR_EXIT; }
static inline int64_t reel_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline AVRational reel_time_base_q(void) { return AV_TIME_BASE_Q; }
static inline int reel_time_base(void) { return AV_TIME_BASE; }

static inline AVChannelLayout reel_channel_layout_mono(void) {
    AVChannelLayout layout = AV_CHANNEL_LAYOUT_MONO;
    return layout;
}
static inline AVChannelLayout reel_channel_layout_stereo(void) {
    AVChannelLayout layout = AV_CHANNEL_LAYOUT_STEREO;
    return layout;
}

static inline uint32_t reel_mktag(char a, char b, char c, char d) { return MKTAG(a, b, c, d); }

// Encodes one subtitle event of `count` ASS dialogue lines ("ReadOrder,Layer,Style,...,Text",
// as FFmpeg's text decoders give them) with a text encoder such as mov_text. Returns the bytes
// written into `buffer`, or a negative error. Times travel on the packet, not in the event.
static inline int reel_encode_ass_event(AVCodecContext *context, const char *const *lines, int count,
                                        uint8_t *buffer, int size) {
    enum { max_lines = 16 };
    if (count <= 0 || count > max_lines) return AVERROR(EINVAL);
    AVSubtitleRect rects[max_lines];
    AVSubtitleRect *pointers[max_lines];
    memset(rects, 0, sizeof rects);
    for (int i = 0; i < count; i++) {
        rects[i].type = SUBTITLE_ASS;
        rects[i].ass = (char *)lines[i];
        pointers[i] = &rects[i];
    }
    AVSubtitle subtitle;
    memset(&subtitle, 0, sizeof subtitle);
    subtitle.num_rects = (unsigned)count;
    subtitle.rects = pointers;
    return avcodec_encode_subtitle(context, buffer, size, &subtitle);
}

#endif
