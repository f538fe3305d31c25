inline float helper(float v) { return v - 1.0f; }
