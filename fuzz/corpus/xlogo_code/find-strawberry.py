def run():
    turn_right()
    for i in range(2):
        move_forward()
    turn_left()
    for i in range(2):
        move_forward()
