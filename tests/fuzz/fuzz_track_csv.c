/* libFuzzer harness: the track CSV parser must reject or accept any bytes without crashing. */
#include "../../track/trk.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char err[TRK_ERR_LEN];
    TrkTrack *t = trk_load_csv_string(text, "fuzz.csv", NULL, err, sizeof err);
    if (t) {
        /* a track that loads must answer queries */
        int hint = -1;
        double s = 0, d = 0;
        TrkPose p = trk_pose_at(t, trk_length(t) * 0.37, &hint);
        trk_to_frenet(t, p.x_m, p.y_m, &s, &d, &hint);
        trk_free(t);
    }
    free(text);
    return 0;
}
