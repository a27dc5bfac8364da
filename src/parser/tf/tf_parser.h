// ge/tf_loader.h is the declaration (public: tools and users load models into a ge::Graph).
#ifndef GE_SRC_PARSER_TF_TF_PARSER_H_
#define GE_SRC_PARSER_TF_TF_PARSER_H_

#include "ge/tf_loader.h"

#endif  // GE_SRC_PARSER_TF_TF_PARSER_H_
